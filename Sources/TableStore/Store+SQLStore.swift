import GRDB

extension Store: SQLStore {
    /// SQLite.
    public var dialect: SQLDialect { .sqlite }

    /// Reads through an ``SQLSession``, with ``queryTimeLimit`` as ``read(_:)`` has it.
    public func snapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        try read { db in try body(db) }
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
    /// Runs a query through GRDB.
    public func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        try Row.fetchAll(self, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue))).map { row in
            SQLRow(row.databaseValues.map(SQLValue.init))
        }
    }

    /// Runs a statement through GRDB.
    public func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try execute(sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
    }
}

extension SQLValue {
    fileprivate var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .bool(let flag): flag.databaseValue
        }
    }

    fileprivate init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        // The examples store no blobs; one shows as its bytes read as UTF-8.
        case .blob(let bytes): self = .text(String(decoding: bytes, as: UTF8.self))
        }
    }
}
