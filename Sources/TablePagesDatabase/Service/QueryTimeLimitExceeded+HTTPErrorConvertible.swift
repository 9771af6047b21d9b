import MicroHTTP
import TablePages
import TableStore

extension QueryTimeLimitExceeded: HTTPErrorConvertible {
    /// The answer to a request whose database read ran past the store's time limit: 503, since
    /// the request is well formed and the server declines the work (a higher limit or an index
    /// would let it through), without `Retry-After`, since the same request would fail again.
    public var httpError: HTTPError {
        HTTPError(503, "The database query took longer than the server's limit of \(milliseconds) ms and was stopped. "
            + "Ask for less (a filter, a column with an index to sort or group by), or start the server with a higher --query-time-limit.")
    }
}
