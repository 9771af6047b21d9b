import Logging
import PostgresNIO
import TableStore

/// ``/TableStore/SQLSession`` on one leased PostgreSQL connection, inside the transaction that
/// ``PostgresStore`` began on it. Each statement blocks its thread until the server answered, or
/// at most `answerWait`: past it the connection is closed (the pool opens another) and the
/// statement fails as a connection failure.
struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let answerWait: Duration
    let logger: Logger

    // Every query is prepared anew (postgres-nio's unnamed statement): `keepsPrepared` is a hint.
    func forEachRow(_ sql: String, _ arguments: [SQLValue], keepsPrepared: Bool, _ body: (SQLRow) throws -> Void) throws {
        // Collected, then handed over: the lane thread cannot iterate an async sequence, and
        // callers bound what they read (a page's LIMIT, an export's keyset batches).
        for row in try collect(sql, arguments) { try body(row) }
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        _ = try collect(sql, arguments)
    }

    private func collect(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        let query = Self.query(sql, arguments)
        do {
            return try PostgresError.translating { try connection.blockingAnswer(within: answerWait, logger: logger) { [connection, logger] in
                try await connection.allRows(query, logger: logger).map { SQLRow(try $0.map(SQLValue.init(cell:))) }
            } }
        } catch let error as PostgresUnanswered {
            throw PostgresError(description: error.description)
        }
    }

    /// Closes the connection without waiting (see `closeInBackground(logger:)`).
    func closeConnection() {
        connection.closeInBackground(logger: logger)
    }

    private static func query(_ sql: String, _ arguments: [SQLValue]) -> PostgresQuery {
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: binds.appendNull()
            case .integer(let number): binds.append(number)
            case .real(let number): binds.append(number)
            case .text(let text): binds.append(text)
            case .bool(let flag): binds.append(flag)
            case .blob(let bytes): binds.append(ByteBuffer(bytes: bytes))
            }
        }
        return PostgresQuery(unsafeSQL: SQLDialect.postgresql.numberingPlaceholders(sql), binds: binds)
    }
}
