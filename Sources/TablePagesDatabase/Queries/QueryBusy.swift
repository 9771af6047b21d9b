import MicroHTTP
import TablePages

/// More visitors' queries wait for the SQL page's connection than it lets wait: 503 with
/// `Retry-After`, since the same query may run in a moment.
struct QueryBusy: Error, HTTPErrorConvertible {
    var httpError: HTTPError {
        HTTPError(503, "Too many SQL queries are waiting to run; try again in a moment.", headers: ["Retry-After": "1"])
    }
}
