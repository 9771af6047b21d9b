import Synchronization

/// The observers a store calls when its data changed, each removable: a page's variant observes
/// while it lives and stops when it is dropped, so a long-running server keeps no observer of a
/// page nobody shows any more. A class, so that a store and the task that hears its changes share
/// one list.
package final class ChangeObservers: Sendable {
    private struct State {
        var observers: [UInt64: @Sendable () -> Void] = [:]
        var nextToken: UInt64 = 0
    }

    private let state = Mutex(State())

    /// A list with no observers.
    package init() {}

    /// Adds `observer`; returns the function that removes it.
    package func add(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let token = state.withLock { state in
            state.nextToken += 1
            state.observers[state.nextToken] = observer
            return state.nextToken
        }
        return { [weak self] in
            // Released outside the lock: an observer's captures may run arbitrary deinitializers.
            let removed = self?.state.withLock { $0.observers.removeValue(forKey: token) }
            _ = removed
        }
    }

    /// The observers now, to call outside the lock.
    package var current: [@Sendable () -> Void] {
        state.withLock { Array($0.observers.values) }
    }

    /// Calls every observer.
    package func notify() {
        for observer in current { observer() }
    }

    /// The number of observers, for tests and metrics.
    package var count: Int {
        state.withLock { $0.observers.count }
    }
}
