import GRDB
import GRDBSQLite
import Synchronization

/// SQLite's authorizer on the SQL page's connection: while a visitor's statement is compiled it
/// lets through only reading — `SELECT`, reads of tables, `WITH RECURSIVE`, functions that touch
/// no file, and `PRAGMA`s of a short list that only report — and notes why anything else was
/// refused and which tables the statement reads.
///
/// It replaces GRDB's own authorizer on that connection (GRDB sets its own once, before
/// `prepareDatabase`): GRDB uses it to learn what statements change, and this connection changes
/// nothing. While ``checking`` is off (GRDB's own statements, e.g. `BEGIN`), it allows everything.
final class QueryAuthorizer: Sendable {
    /// Functions that read or write files, or load code: refused by name, whether or not this
    /// SQLite has them (the `sqlite3` shell's `readfile` and `writefile`, extensions' `fsdir`…).
    static let fileFunctions: Set<String> = [
        "load_extension", "readfile", "writefile", "edit", "fsdir", "zipfile", "sqlar_compress", "sqlar_uncompress", "fts3_tokenizer", "lsdir",
    ]

    /// `PRAGMA`s whose argument names a table or an index: they only report, with or without it
    /// (`PRAGMA table_info(t)`, `SELECT * FROM pragma_table_info('t')`).
    static let describingPragmas: Set<String> = [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo", "foreign_key_list",
    ]

    /// `PRAGMA`s that report without a value, and set a value with one (refused).
    static let reportingPragmas: Set<String> = describingPragmas.union([
        // Not database_list: it names the file's absolute path, which tells a visitor about the server's disk.
        "collation_list", "function_list", "module_list", "pragma_list", "compile_options", "encoding",
        "user_version", "schema_version", "application_id", "page_size", "page_count", "freelist_count", "data_version",
    ])

    private struct State {
        var checking = false
        var refusal: String?
        var tables: Set<String> = []
    }

    private let state = Mutex(State())

    /// What one checked compilation found.
    struct Verdict {
        /// Why the statement was refused; nil when it was not.
        var refusal: String?
        /// The tables (and views' tables) it reads in the main database.
        var tables: Set<String>
    }

    /// Installs the authorizer on `db`'s connection.
    func install(on db: Database) {
        // Retained for the connection's life: SQLite keeps the pointer and calls back through it.
        let context = Unmanaged.passRetained(self).toOpaque()
        sqlite3_set_authorizer(db.sqliteConnection, { context, action, first, second, database, _ in
            guard let context else { return SQLITE_OK }
            let authorizer = Unmanaged<QueryAuthorizer>.fromOpaque(context).takeUnretainedValue()
            return authorizer.decide(action, first.map { String(cString: $0) }, second.map { String(cString: $0) }, database.map { String(cString: $0) })
        }, context)
    }

    /// Runs `compile` with checking on, and says what it found.
    func checking<T>(_ compile: () throws -> T) -> (result: Result<T, any Error>, verdict: Verdict) {
        state.withLock { $0 = State(checking: true) }
        let result = Result(catching: compile)
        let found = state.withLock { state -> Verdict in
            state.checking = false
            return Verdict(refusal: state.refusal, tables: state.tables)
        }
        return (result, found)
    }

    private func decide(_ action: Int32, _ first: String?, _ second: String?, _ database: String?) -> Int32 {
        state.withLock { state in
            guard state.checking else { return SQLITE_OK }
            if let refusal = Self.refusal(action, first, second) {
                if state.refusal == nil { state.refusal = refusal }
                return SQLITE_DENY
            }
            if action == SQLITE_READ, let first, database == "main" { state.tables.insert(first) }
            return SQLITE_OK
        }
    }

    /// Why the action `action` (with SQLite's two arguments) is refused, or nil when it reads only.
    static func refusal(_ action: Int32, _ first: String?, _ second: String?) -> String? {
        switch action {
        case SQLITE_READ where first?.lowercased() == "pragma_database_list":
            // SQLite asks about PRAGMA database_list only when the table-valued form is first
            // connected, which GRDB's own statements may have done already on this connection.
            return "PRAGMA database_list is refused: it names where the database file is on the server's disk."
        case SQLITE_SELECT, SQLITE_READ, SQLITE_RECURSIVE:
            return nil
        case SQLITE_UPDATE where first == "sqlite_master" || first == "sqlite_schema":
            // SQLite asks this while it sets up an eponymous virtual table (`pragma_table_info('t')`)
            // for reading. A statement that did update the schema table would still be refused: it
            // is not read-only (the runner checks), and the connection is opened read-only.
            return nil
        case SQLITE_FUNCTION:
            guard let name = second?.lowercased(), fileFunctions.contains(name) else { return nil }
            return "The function \(name)() is refused: it reads or writes files or loads code, and the SQL page only reads this database."
        case SQLITE_PRAGMA:
            let name = (first ?? "").lowercased()
            if let value = second, !describingPragmas.contains(name) {
                return "PRAGMA \(name) = \(value) is refused: it changes a setting, and the SQL page only reads this database."
            }
            guard reportingPragmas.contains(name) else {
                return "PRAGMA \(name) is refused: the SQL page allows only PRAGMAs that report (\(reportingPragmas.sorted().joined(separator: ", ")))."
            }
            return nil
        case SQLITE_ATTACH, SQLITE_DETACH:
            return "\(action == SQLITE_ATTACH ? "ATTACH" : "DETACH") is refused: the SQL page reads this database only, never another file."
        default:
            return "Only SELECT statements are allowed: this one would \(description(of: action))."
        }
    }

    private static func description(of action: Int32) -> String {
        switch action {
        case SQLITE_INSERT: "insert rows"
        case SQLITE_UPDATE: "update rows"
        case SQLITE_DELETE: "delete rows"
        case SQLITE_TRANSACTION, SQLITE_SAVEPOINT: "begin or end a transaction"
        case SQLITE_ALTER_TABLE: "alter a table"
        case SQLITE_REINDEX, SQLITE_ANALYZE: "rewrite indexes or statistics"
        default: "change the database or its schema"
        }
    }
}
