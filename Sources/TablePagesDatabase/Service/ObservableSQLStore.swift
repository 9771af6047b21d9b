import TablePages
import TableStore

/// A TableStore ``/TableStore/SQLStore`` (SQLite's `Store` or a `PostgresStore`) as data pages
/// observe: a fetch reads through an ``/TableStore/SQLSession`` in one snapshot, with the store's
/// version clock read in that same snapshot, and every change the store reports is announced on
/// ``changes``. Make one per store, and build every ``/TablePages/ObservedSource`` over it.
///
///     let todos = ObservableSQLStore(store)
///     ObservedSource(todos, fetch: { db in try Todo.all(db) }) { … }
public struct ObservableSQLStore: ObservableStore {
    /// The store read from.
    public let store: any SQLStore
    /// Announces every change the store reports (``/TableStore/SQLStore/onChange(_:)``).
    public let changes = ChangeFeed()

    /// Observes `store`'s changes from now on.
    public init(_ store: any SQLStore) {
        self.store = store
        let changes = changes
        store.onChange { changes.notify() }
    }

    /// `fetch` and the version clock in one snapshot (``/TableStore/SQLStore/versionedSnapshot(_:)``).
    public func versionedRead<Value: Sendable>(_ fetch: (any SQLSession) throws -> Value) throws -> (value: Value, version: Int?) {
        try store.versionedSnapshot(fetch)
    }
}
