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

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        let query = try Self.query(sql, arguments)
        do {
            return try PostgresError.translating { try connection.blockingAnswer(within: answerWait, logger: logger) { [connection, logger] in
                try await connection.allRows(query, logger: logger).map { SQLRow(try $0.map(SQLValue.init(cell:))) }
            } }
        } catch let error as PostgresUnanswered {
            throw PostgresError(description: error.description)
        }
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        _ = try rows(sql, arguments)
    }

    /// Closes the connection without waiting (see `closeInBackground(logger:)`).
    func closeConnection() {
        connection.closeInBackground(logger: logger)
    }

    private static func query(_ sql: String, _ arguments: [SQLValue]) throws -> PostgresQuery {
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: binds.appendNull()
            case .integer(let number): binds.append(number)
            case .real(let number): binds.append(number)
            case .text(let text): binds.append(text)
            case .bool(let flag): binds.append(flag)
            }
        }
        return PostgresQuery(unsafeSQL: SQLDialect.postgresql.numberingPlaceholders(sql), binds: binds)
    }
}

extension SQLValue {
    /// A cell in the few types the examples use; any other type comes as its text.
    init(cell: PostgresCell) throws {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int2, .int4, .int8: self = .integer(try cell.decode(Int64.self))
        case .float4, .float8: self = .real(try cell.decode(Double.self))
        case .bool: self = .bool(try cell.decode(Bool.self))
        default: self = .text(try cell.decode(String.self))
        }
    }
}
