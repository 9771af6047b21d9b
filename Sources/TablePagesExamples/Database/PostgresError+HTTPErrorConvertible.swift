import MicroHTTP
import TablePages
import TableStorePostgres

extension PostgresError: HTTPErrorConvertible {
    /// How a failed read or write answers the client, as SQLite's store errors do: a read past the
    /// time limit is 503 (the same request would fail again, so no `Retry-After`); a busy or
    /// unreachable database is 503 with `Retry-After: 1` (nothing was saved: trying again is
    /// safe); a write whose outcome could not be learnt is 500 saying so (trying again might repeat
    /// it); a value the database cannot store (SQLSTATE class 22, e.g. a NUL in text) is 400;
    /// anything else is 500. The message names no internals; the log has the details.
    public var httpError: HTTPError {
        if isTimeout {
            return HTTPError(503, "The database query took longer than the server's limit and was stopped. Start the server with a higher --query-time-limit.")
        }
        if isOutcomeUnknown {
            return HTTPError(500, "The connection to the database was lost while the change was being saved: it may or may not have been saved. Reload the page to see, before trying again.")
        }
        if isTransient {
            return HTTPError(503, "The database is busy or unreachable; nothing was changed. Try again in a moment.", headers: ["Retry-After": "1"])
        }
        if sqlState?.hasPrefix("22") == true {
            return HTTPError(400, "The database cannot store a value given (for example, text with a NUL character); nothing was changed.")
        }
        return HTTPError(500, "The database could not do that.")
    }
}
