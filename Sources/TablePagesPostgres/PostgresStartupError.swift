import PostgresNIO

/// Why serving a PostgreSQL database could not start, for the log: what was being done, and
/// PostgreSQL's own message (PostgresNIO's errors describe themselves generically, to keep data
/// out of logs; the server's message names only the failing object and privilege).
public struct PostgresStartupError: Error, CustomStringConvertible {
    /// What failed, e.g. "reading the tables of public".
    public let step: String
    /// PostgreSQL's message, or the error's own description.
    public let reason: String

    init(step: String, error: any Error) {
        self.step = step
        if let error = error as? PSQLError {
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            reason = error.serverInfo?[.message].map { $0 + state } ?? "\(error.code)"
        } else {
            reason = String(describing: error)
        }
    }

    /// The step and the reason.
    public var description: String { "PostgreSQL: \(step) failed: \(reason)" }
}
