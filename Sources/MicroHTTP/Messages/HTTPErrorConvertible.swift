/// An error that is its own answer to the client wherever a handler throws it: typically a
/// library's error that a handler lets through. ``HTTPError`` is one; a thrown error that is none
/// is answered 500 (see ``Response/error(_:for:)``), the one place errors become statuses.
///
/// TablePagesDatabase makes TableStore's `QueryTimeLimitExceeded` one (503: the read ran past the
/// store's time limit).
public protocol HTTPErrorConvertible: Error {
    /// The response: its status, a message for the client that names no internals, and headers.
    var httpError: HTTPError { get }
}
