import MicroHTTP
import TablePages

/// Why a visitor's SQL was not run, or failed as SQL: a client's mistake, answered 400 with the
/// message (a syntax error, an unknown table, a statement that would write, a refused `PRAGMA`).
public struct QueryRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, for the person who wrote the SQL.
    public let message: String

    /// A refusal saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension QueryRefusal: HTTPErrorConvertible {
    /// 400 with the message.
    public var httpError: HTTPError { HTTPError(400, message) }
}
