import MicroHTTP
import TablePages
import TableStorePostgres

extension PostgresError: HTTPErrorConvertible {
    /// How a failed read or write answers the client, as SQLite's store errors do: a read past the
    /// time limit is 503 (the same request would fail again, so no `Retry-After`); a busy or
    /// unreachable database is 503 with `Retry-After: 1`; anything else is 500. The message names
    /// no internals; the log has the details.
    public var httpError: HTTPError {
        if isTimeout {
            return HTTPError(503, "The database query took longer than the server's limit and was stopped. Start the server with a higher --query-time-limit.")
        }
        if isTransient {
            return HTTPError(503, "The database is busy or unreachable; try again in a moment.", headers: ["Retry-After": "1"])
        }
        return HTTPError(500, "The database could not do that.")
    }
}
