/// Something that answers requests; the server hands every fully received request to one.
///
/// Implementation requirements: the methods may be called on any thread, concurrently.
/// ``answer(to:)`` (by default ``immediateResponse(to:)``) runs on one of libmicrohttpd's event
/// threads, so it must not block; a ``HTTPAnswer/later(_:)`` answer (by default, nil from
/// ``immediateResponse(to:)`` and then ``respond(to:)``) has the server suspend the connection and
/// run the work.
public protocol HTTPResponder: Sendable {
    /// The response at once, or the work that makes it later; the server asks this of every request.
    func answer(to request: Request) -> HTTPAnswer
    /// A response that can be made at once without waiting (static files, routing errors), or nil.
    func immediateResponse(to request: Request) -> Response?
    /// The response to `request`, made asynchronously while its connection is suspended.
    func respond(to request: Request) async -> Response
    /// The page browsers see for the errors the server answers itself (a body too large, a
    /// request too slow, shutting down); ``ErrorPage/plainText`` unless the responder says otherwise.
    var errorPage: ErrorPage { get }
}

extension HTTPResponder {
    /// ``immediateResponse(to:)``, or ``respond(to:)`` later when it is nil.
    public func answer(to request: Request) -> HTTPAnswer {
        if let response = immediateResponse(to: request) { return .now(response) }
        return .later { await respond(to: request) }
    }

    /// ``ErrorPage/plainText``.
    public var errorPage: ErrorPage { .plainText }
}
