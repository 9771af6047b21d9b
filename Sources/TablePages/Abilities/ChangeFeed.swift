import Synchronization

/// Tells live pages that the data behind them changed, wherever the change came from (an action,
/// another server instance, another process writing the same database). Every ``ObservableStore``
/// has one, and ``ObservedSource`` pages read their data again when it notifies; so do pages whose
/// definition names a feed (``PageDefinition/changes``). Each page then sends only the rows that differ.
///
///     let feed = ChangeFeed()
///     store.onChange { feed.notify() }
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
