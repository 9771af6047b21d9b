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

        func forEachRow(sql: String, arguments: [DatabaseValue], keepsPrepared: Bool, _ body: ([DatabaseValue]) throws -> Void) throws {
            // GRDB's statement cache has no bound: only a bounded set of texts may stay in it.
            let statement = keepsPrepared ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
            // A cursor, not an array: a page cuts each row's long values as it is read.
            let cursor = try GRDB.Row.fetchCursor(statement, arguments: StatementArguments(arguments))
            let columns = CInt(statement.columnCount)
            while try cursor.next() != nil {
                // Read from the statement by index: GRDB's `databaseValues` walks a row as (column
                // name, value) pairs, making a String of every column's name for every value, and
                // its per-index decoding goes through a generic conversion (together about a tenth
                // of a 100-row page's CPU time).
                try body((0..<columns).map { DatabaseValue(sqliteStatement: statement.sqliteStatement, index: $0) })
            }
        }
    }
}
