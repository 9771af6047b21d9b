/// Something that answers requests; the server hands every fully received request to one.
///
/// Implementation requirements: ``answer(to:)`` may be called on any thread, concurrently. The
/// server calls it on one of libmicrohttpd's event threads, so it must not block: what waits
/// goes into an ``HTTPAnswer/later(_:)`` or ``HTTPAnswer/elsewhere(_:)`` answer.
public protocol HTTPResponder: Sendable {
    /// The response at once, or the work that makes it.
    func answer(to request: Request) -> HTTPAnswer
}

extension HTTPResponder {
    /// The response when ``answer(to:)`` has it at once (static files, a cached page, routing
    /// errors), else nil; the work of a deferred answer is not started.
    public func immediateResponse(to request: Request) -> Response? {
        guard case .now(let response) = answer(to: request) else { return nil }
        return response
    }

    /// The response to `request`, whichever way ``answer(to:)`` makes it.
    public func respond(to request: Request) async -> Response {
        await answer(to: request).response(for: request)
    }
}
