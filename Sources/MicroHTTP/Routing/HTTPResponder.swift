/// Something that answers requests; the server hands every fully received request to one.
///
/// Implementation requirements: both methods may be called on any thread, concurrently.
/// ``immediateResponse(to:)`` runs on one of libmicrohttpd's event threads, so it must not block;
/// return nil from it to have the server suspend the connection and call ``respond(to:)`` instead.
public protocol HTTPResponder: Sendable {
    /// A response that can be made at once without waiting (static files, routing errors), or nil.
    func immediateResponse(to request: Request) -> Response?
    /// The response to `request`, made asynchronously while its connection is suspended.
    func respond(to request: Request) async -> Response
    /// The page browsers see for the errors the server answers itself (a body too large, a
    /// request too slow, shutting down); ``ErrorPage/plainText`` unless the responder says otherwise.
    var errorPage: ErrorPage { get }
}

extension HTTPResponder {
    /// ``ErrorPage/plainText``.
    public var errorPage: ErrorPage { .plainText }
}
