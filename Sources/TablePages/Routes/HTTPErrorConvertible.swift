import MicroHTTP

/// An error that is its own answer to the client wherever a page throws it — while the page is
/// built, read or acted on: typically a library's error that a page's delegates let through.
///
/// TablePagesDatabase makes TableStore's `QueryTimeLimitExceeded` one (503: the read ran past the
/// store's time limit). A delegate that knows the answer itself can throw an ``/MicroHTTP/HTTPError``.
public protocol HTTPErrorConvertible: Error {
    /// The response: its status, a message for the client that names no internals, and headers.
    var httpError: HTTPError { get }
}
