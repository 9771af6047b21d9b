import GRDB

extension Store: SQLStore {
    /// SQLite.
    public var dialect: SQLDialect { .sqlite }

    /// Reads through an ``SQLSession``, with ``queryTimeLimit`` as ``read(_:)`` has it.
    public func snapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        try read { db in try body(db) }
    }

    /// Reads through an ``SQLSession`` in no transaction, as the store's `readWithoutSnapshot(_:)` over a GRDB `Database` does.
    public func readWithoutSnapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        try readWithoutSnapshot { (db: Database) in try body(db) }
    }

    /// Writes through an ``SQLSession`` in one transaction, as ``write(_:)`` does.
    public func transaction<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        try write { db in try body(db) }
    }

    /// The ``SQLiteChangeClock``'s value; nil when the database has none (a user's own file).
    public func dataVersion() throws -> Int? {
        try reader.read { db in try SQLiteChangeClock.version(in: db) }
    }

    /// Reads through an ``SQLSession`` and the ``SQLiteChangeClock`` in one read transaction.
    public func versionedSnapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> (value: T, version: Int?) {
        try read { db in
            let value = try body(db)
            return (value, try SQLiteChangeClock.version(in: db))
        }
    }
}

extension Database: SQLSession {
    /// Runs a query through a GRDB cursor: each row is read from SQLite as `body` asks for it.
    public func forEachRow(_ sql: String, _ arguments: [SQLValue], keepsPrepared: Bool, _ body: (SQLRow) throws -> Void) throws {
        // GRDB's statement cache has no bound: only a bounded set of texts may stay in it.
        let statement = keepsPrepared ? try cachedStatement(sql: sql) : try makeStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: SQLValue.statementArguments(arguments))
        let columns = CInt(statement.columnCount)
        while try cursor.next() != nil {
            // Read from the statement by index: GRDB's `databaseValues` walks a row as (column
            // name, value) pairs, making a String of every column's name for every value (about a
            // tenth of a 100-row page's CPU time).
            try body(SQLRow((0..<columns).map { SQLValue(DatabaseValue(sqliteStatement: statement.sqliteStatement, index: $0)) }))
        }
    }

    /// Runs a statement through GRDB.
    public func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try execute(sql: sql, arguments: SQLValue.statementArguments(arguments))
    }
}

extension SQLValue {
    /// `values` bound in order. Not GRDB's `StatementArguments(_:)` over concrete values: that
    /// one maps them with a key path, which Swift instantiates anew on every call (about 2 % of a
    /// page of rows' CPU time, for a query or two per page).
    static func statementArguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(values.map { $0.databaseValue as (any DatabaseValueConvertible)? })
    }

    /// The value as GRDB binds it (a boolean as 0 or 1).
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let bytes): bytes.databaseValue
        case .bool(let flag): flag.databaseValue
        }
    }

    /// GRDB's value as it is: each SQLite storage class as its own case.
    public init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        }
    }
}
