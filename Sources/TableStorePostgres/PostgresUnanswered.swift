/// Why a statement got no answer from PostgreSQL (see
/// `PostgresConnection.blockingAnswer(within:logger:_:)`).
public enum PostgresUnanswered: Error, Equatable, CustomStringConvertible {
    /// The connection was already closed (by the server, or after a failure): nothing was sent.
    case closedBeforeSending
    /// The connection closed while the statement waited for its answer.
    case closedWhileWaiting
    /// No answer came within the limit; the connection was closed.
    case timedOut(Duration)

    /// Says what happened, for a log line or an error answer.
    public var description: String {
        switch self {
        case .closedBeforeSending: "the PostgreSQL connection was closed (by the server, or after a failure)"
        case .closedWhileWaiting: "the PostgreSQL connection closed before it answered a statement"
        case .timedOut(let limit): "PostgreSQL did not answer a statement within \(limit); the connection was closed"
        }
    }
}
