import TableStore

/// Runs a database page's queries on a SQLite ``/TableStore/Store``, within its query time limit.
struct StoreTableExecutor: DatabaseTableExecutor {
    let store: Store

    var dialect: SQLDialect { .sqlite }

    func read<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        try store.read { db in try body(db) }
    }
}
