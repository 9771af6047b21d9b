import Dispatch
import GRDB
import Logging
import Synchronization

/// Polls `PRAGMA data_version` on a private read-only connection: its value changes whenever any
/// other connection (in this process or another) commits to the database.
///
/// The poll blocks on SQLite (a busy database makes it wait up to the busy timeout), so it runs on
/// a dispatch queue of its own rather than on Swift's cooperative pool, where it would hold one of
/// the few threads every request needs.
final class ChangeWatcher: Sendable {
    private struct State {
        var lastVersion: Int?
        var timer: (any DispatchSourceTimer)?
    }

    private let connection: DatabaseQueue
    private let queue = DispatchQueue(label: "tablestore.change-watcher")
    private let logger: Logger
    private let state = Mutex(State())
    /// Who is told of each change.
    let observers = ChangeObservers()

    init(path: String, logger: Logger) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.logger = logger
        _ = poll()
    }

    /// Adds `observer`; returns the function that removes it.
    func addObserver(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        observers.add(observer)
    }

    func start(interval: Duration) {
        let nanoseconds = Int(interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
        // Made under the lock: a timer is not Sendable, so it never leaves the state it lives in.
        state.withLock { state in
            state.timer?.cancel()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
            timer.setEventHandler { [weak self] in self?.checkNow() }
            timer.resume()
            state.timer = timer
        }
    }

    func stop() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
        }
    }

    /// Notifies the observers when the database changed since the last check.
    func checkNow() {
        guard poll() else { return }
        observers.notify()
    }

    /// Whether the version moved since the last poll.
    private func poll() -> Bool {
        let version: Int
        do {
            // Outside a transaction: data_version is per connection and must see every commit.
            version = try connection.inDatabase { try Int.fetchOne($0, sql: "PRAGMA data_version") } ?? 0
        } catch {
            logger.warning("cannot poll the database for changes: \(error)")
            return false
        }
        return state.withLock { state in
            defer { state.lastVersion = version }
            guard let last = state.lastVersion else { return false }
            return last != version
        }
    }
}
