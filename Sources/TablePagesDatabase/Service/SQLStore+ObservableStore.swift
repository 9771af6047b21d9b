import TablePages
import TableStore

// Every TableStore store is data pages observe, itself: an `ObservedSource` is built over a SQLite
// `Store` (here) or a `PostgresStore` (TablePagesPostgres) directly, its fetch reading through an
// `SQLSession` in one snapshot with the store's version clock.
extension ObservableStore where Self: SQLStore {
    /// `fetch` and the version clock in one snapshot (``/TableStore/SQLStore/versionedSnapshot(_:)``).
    public func versionedRead<Value: Sendable>(_ fetch: (any SQLSession) throws -> Value) throws -> (value: Value, version: Int?) {
        try versionedSnapshot(fetch)
    }
}

extension Store: ObservableStore {}
