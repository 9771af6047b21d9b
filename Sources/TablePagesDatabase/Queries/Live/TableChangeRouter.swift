import CoreMetrics
import Synchronization
import TablePages

/// Passes each change a store reports to the live queries that read a table it touched
/// (``ChangedTables/mayChange(readerOf:)``), each through a ``ThrottledFeed`` of its own: one
/// router per registration of ``LiveQueryPages``, one ``Watch`` per query variant shown.
final class TableChangeRouter: Sendable {
    private struct Reader {
        var tables: Set<String>?
        let throttled: ThrottledFeed
    }

    private let readers = Mutex<[UInt64: Reader]>([:])
    private let nextToken = Atomic<UInt64>(0)
    private let interval: Duration

    /// A router whose queries each re-run at most once per `interval`.
    init(interval: Duration) {
        self.interval = interval
    }

    /// One query's place in the router: its feed, and the tables it reads, which it sets after
    /// each run. Leaves the router when released.
    final class Watch: Sendable {
        /// Where the query's changes are announced, at most once per the router's interval.
        let feed: ChangeFeed
        private let token: UInt64
        private let router: TableChangeRouter

        fileprivate init(token: UInt64, feed: ChangeFeed, router: TableChangeRouter) {
            self.token = token
            self.feed = feed
            self.router = router
        }

        /// The query reads `tables` (nil: not known; it then hears every change).
        func reads(_ tables: Set<String>?) {
            router.readers.withLock { $0[token]?.tables = tables }
        }

        deinit {
            _ = router.readers.withLock { $0.removeValue(forKey: token) }
        }
    }

    /// A new query's watch; until it says which tables it reads, it hears every change.
    func watch() -> Watch {
        let token = nextToken.add(1, ordering: .relaxed).newValue
        let throttled = ThrottledFeed(interval: interval)
        readers.withLock { $0[token] = Reader(tables: nil, throttled: throttled) }
        return Watch(token: token, feed: throttled.feed, router: self)
    }

    /// The label of the counter of variants a change passed over (``notify(_:)``).
    static let skippedCounterLabel = "tablepages_live_query_changes_skipped_total"

    /// Announces `change` to the queries it may change; returns how many it passed over, and
    /// counts them (``skippedCounterLabel``, in the process's metrics).
    @discardableResult
    func notify(_ change: ChangedTables) -> Int {
        let (reached, skipped) = readers.withLock { readers -> ([ThrottledFeed], Int) in
            let reached = readers.values.filter { change.mayChange(readerOf: $0.tables) }.map(\.throttled)
            return (reached, readers.count - reached.count)
        }
        for throttled in reached { throttled.notify() }
        // Made when counted, not at registration: the server bootstraps its metrics after registering pages.
        if skipped > 0 { Counter(label: Self.skippedCounterLabel).increment(by: skipped) }
        return skipped
    }
}
