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
public final class ChangeFeed: Sendable {
    private let observers = Mutex<[UInt64: @Sendable () -> Void]>([:])
    private let nextToken = Atomic<UInt64>(0)

    /// Creates a feed with no observers.
    public init() {}

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
