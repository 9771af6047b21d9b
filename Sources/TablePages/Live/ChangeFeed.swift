import Synchronization

/// Tells live pages that the data behind them changed, wherever the change came from (an action,
/// another server instance, another process writing the same database). Pages whose definition
/// names the feed re-read their data (a ``ReloadableDataSource`` root reads its source again; any
/// other root is asked again as it stands) and publish only the rows that differ.
///
/// A change that code of the page makes itself in a background task, to one row it knows, goes
/// through the table's ``/TableKit/TableUpdater`` instead (`tableContext.updater`).
///
///     let feed = ChangeFeed()
///     store.onChange { feed.notify() }
///     PageDefinition(name: "todo", title: "To do", changes: feed) { … }
///
/// A feed with a clock numbers the pages' states by the data's own version, so that the same event
/// id means the same state on every instance serving the data:
///
///     let feed = ChangeFeed(clock: { try store.dataVersion() })
public final class ChangeFeed: Sendable {
    /// Reads the data's version now: a counter that every write transaction advances in the same
    /// transaction, such as TableStore's `SQLStore.dataVersion()`; nil when there is none. Called
    /// on a database lane, before and after a page re-reads.
    public typealias Clock = @Sendable () throws -> Int?

    /// The data's version clock, if it has one.
    ///
    /// A page whose root is a ``VersionedDataSource`` reads the clock before and after
    /// ``ReloadableDataSource/reloadFromSource()`` (and around its factory); when both agree the
    /// state it shows is that version's, and its patch's event id is made from the version.
    /// Otherwise, and on pages whose rows change by other means, ids are the host's own (see the
    /// README's "Event ids").
    public let clock: Clock?
    private let observers = Mutex<[UInt64: @Sendable () -> Void]>([:])
    private let nextToken = Atomic<UInt64>(0)

    /// Creates a feed with no observers; with a `clock`, pages number their states by it.
    public init(clock: Clock? = nil) {
        self.clock = clock
    }

    /// Calls every observer; cheap when nobody listens.
    public func notify() {
        for observer in observers.withLock({ Array($0.values) }) { observer() }
    }

    /// Adds an observer and returns the token that removes it.
    @discardableResult
    func observe(_ observer: @escaping @Sendable () -> Void) -> UInt64 {
        let token = nextToken.add(1, ordering: .relaxed).newValue
        observers.withLock { $0[token] = observer }
        return token
    }

    /// Removes an observer.
    func removeObserver(_ token: UInt64) {
        _ = observers.withLock { $0.removeValue(forKey: token) }
    }
}
