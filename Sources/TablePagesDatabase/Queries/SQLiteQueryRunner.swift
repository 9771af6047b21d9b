import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import TableStore

/// Runs visitors' SQL on a SQLite file, on a connection of its own that cannot write: opened
/// read-only (`SQLITE_OPEN_READONLY`), with `PRAGMA query_only`, and a ``QueryAuthorizer`` that
/// refuses anything but reading while the statement compiles (so `ATTACH`, `PRAGMA` writes and
/// functions that touch files are refused before anything runs). One statement at a time, under
/// ``QueryLimits``.
///
///     let runner = try SQLiteQueryRunner(path: "shop.db", limits: QueryLimits())
///     let result = try runner.run("SELECT * FROM orders WHERE status = :status", parameters: ["status": "paid"])
final class SQLiteQueryRunner: QueryRunner {
    let limits: QueryLimits
    private let queue: DatabaseQueue
    private let authorizer = QueryAuthorizer()

    /// Opens `path` read-only for queries under `limits`.
    /// - Throws: GRDB's error when the file cannot be opened as a database.
    init(path: String, limits: QueryLimits) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        configuration.label = "SQL page"
        let authorizer = authorizer
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA query_only = 1")
            authorizer.install(on: db)
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.limits = limits
    }

    /// Runs `sql`, binding each named parameter SQLite finds in it (`:name`, also `@name` and
    /// `$name`) to the text `parameters` has for its name, or to empty text. Blocks its thread.
    /// - Throws: ``QueryRefusal`` for SQL that is refused or fails as SQL, `QueryTimeLimitExceeded`
    ///   past the time limit, GRDB's errors otherwise.
    func run(_ sql: String, parameters: [String: String]) throws -> QueryResult {
        let started = DispatchTime.now()
        var result = try queue.read { db in
            if let limit = limits.time {
                return try QueryDeadline.run(db, limit: limit) { try self.rows(sql, parameters: parameters, in: $0) }
            }
            return try rows(sql, parameters: parameters, in: db)
        }
        result.milliseconds = QueryResult.milliseconds(since: started)
        return result
    }

    /// Prepares `sql` on the read-only connection, as ``run(_:parameters:)`` does, and runs nothing.
    func check(_ sql: String) throws {
        try queue.read { db in _ = try statement(sql, in: db) }
    }

    /// `sql` compiled under the authorizer, with the tables it reads and its parameters' names
    /// (`:name`, with their sign).
    /// - Throws: ``QueryRefusal`` when it is empty, refused, fails to compile, would write or has
    ///   a parameter without a name.
    private func statement(_ sql: String, in db: Database) throws -> (statement: Statement, tables: Set<String>, names: [String]) {
        guard !sql.allSatisfy(\.isWhitespace) else { throw QueryRefusal("Write a SELECT statement to run.") }
        let (compiled, verdict) = authorizer.checking { try db.makeStatement(sql: sql) }
        if let refusal = verdict.refusal { throw QueryRefusal(refusal) }
        let statement: Statement
        do {
            statement = try compiled.get()
        } catch {
            throw Self.clientError(error) ?? error
        }
        guard statement.isReadonly else { throw QueryRefusal("Only SELECT statements are allowed: this one would change the database.") }
        let names = (0..<sqlite3_bind_parameter_count(statement.sqliteStatement)).map { index -> String in
            sqlite3_bind_parameter_name(statement.sqliteStatement, index + 1).map { String(cString: $0) } ?? ""
        }
        if names.contains("") {
            throw QueryRefusal("Name every parameter (:name): a ? placeholder cannot be filled in from the page.")
        }
        return (statement, verdict.tables, names)
    }

    private func rows(_ sql: String, parameters: [String: String], in db: Database) throws -> QueryResult {
        let (statement, tables, names) = try statement(sql, in: db)
        var arguments: [String: (any DatabaseValueConvertible)?] = [:]
        for name in names { arguments[String(name.dropFirst())] = parameters[String(name.dropFirst())] ?? "" }
        do {
            try statement.setArguments(StatementArguments(arguments))
            var rows: [[SQLValue]] = []
            var bytes = 0
            var truncated = false
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                let values = Array(row.databaseValues.map(SQLValue.init))
                bytes += values.reduce(0) { $0 + QueryResult.size(of: $1) }
                if rows.count == limits.rows || (bytes > limits.bytes && !rows.isEmpty) {
                    truncated = true
                    break
                }
                rows.append(values)
            }
            return QueryResult(columns: statement.columnNames, rows: rows, truncated: truncated, tables: tables, milliseconds: 0)
        } catch {
            throw Self.clientError(error) ?? error
        }
    }

    /// `error` as a ``QueryRefusal`` when the SQL is at fault (syntax, an unknown name, a wrong
    /// argument, two statements), nil when the server is (I/O, a lock, the time limit).
    static func clientError(_ error: any Error) -> QueryRefusal? {
        guard let error = error as? DatabaseError else { return nil }
        if error.message?.hasPrefix("Multiple statements found") == true {
            return QueryRefusal("Only one statement can run at a time: this SQL has multiple statements.")
        }
        switch error.resultCode {
        case .SQLITE_ERROR, .SQLITE_AUTH, .SQLITE_RANGE, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_MISUSE, .SQLITE_READONLY, .SQLITE_CONSTRAINT:
            return QueryRefusal(error.message ?? "SQLite could not run this statement.")
        default:
            return nil
        }
    }
}
