import Synchronization

/// The callbacks a ``PostgresStore`` calls when its data changed; a class so that the store and
/// its listening connection's task share one list.
final class ChangeObservers: Sendable {
    private let observers = Mutex<[@Sendable () -> Void]>([])

    func add(_ observer: @escaping @Sendable () -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func notify() {
        for observer in observers.withLock({ $0 }) { observer() }
    }
}
