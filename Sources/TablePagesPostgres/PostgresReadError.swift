import MicroHTTP
import PostgresNIO
import TablePages
import TableStore
import TableStorePostgres

/// PostgreSQL's refusal of a page's query, as the client's answer.
///
/// A value that cannot be read as its column's type (`?id__gt=abc` on an integer column, a NUL in
/// text) is the client's mistake: 400 with PostgreSQL's reason. SQLite compares such values
/// instead; PostgreSQL is strictly typed. A comparison the type has no operator for (`=` on
/// `json`) is a 400 too. An unreachable server is 503. Other errors stay what they are (500).
struct PostgresReadError: Error, HTTPErrorConvertible, CustomStringConvertible {
    /// The answer's status.
    let status: Int
    /// PostgreSQL's message.
    let reason: String

    var httpError: HTTPError {
        status == 400
            ? HTTPError(400, "PostgreSQL cannot compare the column with the value given (\(reason)). Give a value of the column's type.")
            : HTTPError(status, "The PostgreSQL database cannot be reached (\(reason)). Try again later.")
    }

    var description: String { "PostgreSQL: \(reason)" }

    /// A server that could not be reached or did not answer: 503.
    static func unreachable(_ error: TableStorePostgres.PostgresError) -> PostgresReadError {
        PostgresReadError(status: 503, reason: error.description)
    }

    /// What `error` means for the client: a time limit, a bad value, an unreachable server, or
    /// itself.
    static func classify(_ error: PSQLError, queryTimeLimit: Duration?) -> any Error {
        guard let state = error.serverInfo?[.sqlState] else {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
                return PostgresReadError(status: 503, reason: "\(error.code)")
            default:
                return error
            }
        }
        let message = error.serverInfo?[.message] ?? state
        // 57014 query_canceled: the statement_timeout the executor's connections carry.
        if state == "57014", let queryTimeLimit { return QueryTimeLimitExceeded(limit: queryTimeLimit) }
        if state.hasPrefix("22") || state == "42883" { return PostgresReadError(status: 400, reason: message) }
        if state.hasPrefix("08") || state.hasPrefix("57P") { return PostgresReadError(status: 503, reason: message) }
        return error
    }
}
