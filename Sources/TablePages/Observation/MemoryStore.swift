import Synchronization

/// A value kept in memory that pages observe: every ``update(_:)`` is announced, and each page
/// showing it reads it again and sends what changed. It is `Sendable`, so a background task (a
/// picture loaded, a timer) changes what pages show by updating the store.
///
///     let shelf = MemoryStore(Book.samples)
///     Task { shelf.update { books in books[0].isRead = true } }
///
/// It keeps no version clock: its data starts again with each process, so pages number their
/// states themselves.
public final class MemoryStore<Value: Sendable>: ObservableStore {
    private let value: Mutex<Value>
    private let changes = ChangeFeed()

    /// A store holding `value`.
    public init(_ value: Value) {
        self.value = Mutex(value)
    }

    /// The value now.
    public var current: Value {
        value.withLock { $0 }
    }

    /// Changes the value and announces it; returns what `change` returns.
    @discardableResult
    public func update<Result: Sendable>(_ change: (inout Value) throws -> Result) rethrows -> Result {
        let result = try value.withLock { try change(&$0) }
        changes.notify()
        return result
    }

    /// `fetch` over the value now; no version.
    public func versionedRead<Fetched: Sendable>(_ fetch: (Value) throws -> Fetched) throws -> (value: Fetched, version: Int?) {
        (try fetch(current), nil)
    }

    /// Calls `observer` after every ``update(_:)``, until the function it returns is called.
    @discardableResult
    public func onChange(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        changes.observe(observer)
    }
}
