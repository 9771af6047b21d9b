import MicroHTTP
import TablePages

extension TableWriteError: HTTPErrorConvertible {
    /// 409, 400, 404, 403, or 503/500, with a message that names the column and the rule.
    public var httpError: HTTPError {
        switch self {
        case .conflict(let current):
            HTTPError(409, current == nil ? "The row was deleted since you saw it." : "The row was changed since you saw it.")
        case .constraint(let column, _, let message):
            HTTPError(400, column.map { "\($0): \(message)" } ?? message)
        case .invalid(let column, let message):
            HTTPError(400, column.map { "\($0): \(message)" } ?? message)
        case .notFound:
            HTTPError(404, "No such row.")
        case .nothingToUndo:
            HTTPError(404, "You have no change left to undo.")
        case .readOnly(let reason):
            HTTPError(403, reason)
        case .failed(let message, let retryable):
            retryable ? HTTPError(503, message, headers: ["Retry-After": "1"]) : HTTPError(500, message)
        }
    }
}
