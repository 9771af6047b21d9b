import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import TableStore

/// Runs visitors' SQL on a SQLite file, on a connection of its own that cannot write: opened
/// read-only (`SQLITE_OPEN_READONLY`), with `PRAGMA query_only`, and a ``QueryAuthorizer`` that
/// refuses anything but reading while the statement compiles (so `ATTACH`, `PRAGMA` writes and
/// functions that touch files are refused before anything runs). One statement at a time, under
/// ``QueryLimits``: no string or blob larger than ``QueryLimits/bytes`` is made
/// (`SQLITE_LIMIT_LENGTH`), and rows are read until their answer would pass it
/// (``QueryResultLimiter``).
///
///     let runner = try SQLiteQueryRunner(path: "shop.db", limits: QueryLimits())
///     let result = try runner.run("SELECT * FROM orders WHERE status = :status", parameters: ["status": "paid"])
final class SQLiteQueryRunner: QueryRunner {
    /// The longest `LIKE` or `GLOB` pattern (SQLite's default is 50,000 bytes): one call matches
    /// in up to the pattern's length times the text's steps, and the progress handler cannot
    /// stop a call (a 400 kB text and a 1,000-byte pattern: 0.5 s of CPU).
    static let likePatternLength: Int32 = 100

    /// The most memory SQLite may hold in the whole process while the SQL page is served: 32
    /// times the size limit, at least 256 MiB. A row is made whole before it is read, and SQLite
    /// checks its time limit only between loops, so a row of many values each within
    /// `SQLITE_LIMIT_LENGTH` (`randomblob(8000000)` a hundred times: 800 MB) is stopped only by
    /// this; the table pages' connections hold a few MB each.
    static func heapLimit(for bytes: Int) -> Int {
        max(32 * bytes, 256 << 20)
    }

    /// Sets SQLite's hard heap limit to `bytes`, unless one at least as high is set.
    private static func limitHeap(to bytes: Int) {
        let current = sqlite3_hard_heap_limit64(-1)
        if current == 0 || current < Int64(bytes) { sqlite3_hard_heap_limit64(Int64(bytes)) }
    }

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
        let length = Int32(clamping: limits.bytes)
        let functions = try SQLiteBoundedFunctions(lengthLimit: Int(length))
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA query_only = 1")
            authorizer.install(on: db)
            // No string or blob, computed or stored, larger than an answer may be: zeroblob,
            // printf('%.*c', …), randomblob and replace fail at once (SQLITE_TOOBIG) instead of
            // allocating gigabytes in one call that the progress handler cannot interrupt.
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, length)
            // A LIKE or GLOB pattern costs its length times the text's in one call.
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, Self.likePatternLength)
            functions.install(on: db.sqliteConnection)
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.limits = limits
        Self.limitHeap(to: Self.heapLimit(for: limits.bytes))
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
            var limiter = QueryResultLimiter(limits: limits, columns: statement.columnNames, rowLinkBytes: QueryResultLimiter.linkBytes(sql: sql, parameters: parameters))
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                // The sizes first: a zeroblob is only made when its bytes are read.
                guard try limiter.mayFit(rawBytes: Self.rawBytes(of: statement)) else { break }
                guard try limiter.admit(row.databaseValues.map(SQLValue.init)) else { break }
            }
            var result = limiter.result
            result.tables = tables
            return result
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOMEM {
            throw QueryRefusal(
                "This query needed more memory than SQLite may hold (\(QueryLimits.describe(bytes: Self.heapLimit(for: limits.bytes))) for the whole server, 32 times --sql-result-size): select fewer or shorter columns."
            )
        } catch let error as DatabaseError where error.resultCode == .SQLITE_TOOBIG {
            throw QueryRefusal(
                "A value is larger than the size limit (\(QueryLimits.describe(bytes: limits.bytes)), --sql-result-size): SQLite stopped at \(error.message ?? "it")."
            )
        } catch {
            throw Self.clientError(error) ?? error
        }
    }

    /// The bytes of the text and blob values of `statement`'s current row, without reading them.
    private static func rawBytes(of statement: Statement) -> Int {
        let handle = statement.sqliteStatement
        var bytes = 0
        for column in 0..<sqlite3_column_count(handle) {
            switch sqlite3_column_type(handle, column) {
            case SQLITE_TEXT, SQLITE_BLOB: bytes += Int(sqlite3_column_bytes(handle, column))
            default: break
            }
        }
        return bytes
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
