import Synchronization

/// Tells live pages that the data behind them changed: what a page's host observes (an
/// ``ObservedSource``'s store, a database's tables, a feed of state of this process alone), below
/// the two public doors (``ObservedSource`` over an ``ObservableStore``, and a table's
/// ``/TableKit/TableUpdater``). Each page then re-reads and sends only the rows that differ.
///
///     let feed = ChangeFeed()
///     store.onChange { feed.notify() }
package final class ChangeFeed: Sendable {
    private let observers = Mutex<[UInt64: @Sendable () -> Void]>([:])
    private let nextToken = Atomic<UInt64>(0)

    /// Creates a feed with no observers.
    package init() {}

    /// Calls every observer; cheap when nobody listens.
    package func notify() {
        for observer in observers.withLock({ Array($0.values) }) { observer() }
    }

    /// Adds an observer and returns the function that removes it.
    @discardableResult
    package func observe(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let token = nextToken.add(1, ordering: .relaxed).newValue
        observers.withLock { $0[token] = observer }
        return { [weak self] in
            // Released outside the lock: an observer's captures may run arbitrary deinitializers.
            let removed = self?.observers.withLock { $0.removeValue(forKey: token) }
            _ = removed
        }
    }
}
