import GRDB
import TableStore

/// Runs a database page's queries on a SQLite ``/TableStore/Store``, within its query time limit.
struct StoreTableExecutor: DatabaseTableExecutor {
    let store: Store

    var dialect: SQLDialect { .sqlite }

    func read<T: Sendable>(_ body: (any DatabaseTableQueryRunner) throws -> T) throws -> T {
        try store.read { db in try body(Runner(db: db)) }
    }

    /// One GRDB connection inside a read.
    private struct Runner: DatabaseTableQueryRunner {
        let db: Database

        func forEachRow(sql: String, arguments: [DatabaseValue], _ body: ([DatabaseValue]) throws -> Void) throws {
            // A cursor, not an array: a page cuts each row's long values as it is read.
            let cursor = try GRDB.Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try cursor.next() {
                try body(Array(row.databaseValues))
            }
        }
    }
}
