/// What a responder makes of a request on the event thread: the response at once, or the work
/// that makes it while the connection is suspended, holding whatever the first look resolved
/// (the route, and what the route's first step found), so nothing is looked up twice.
public enum HTTPAnswer: Sendable {
    /// The response, made without waiting.
    case now(Response)
    /// The work that makes the response; the server suspends the connection and runs it once.
    case later(@Sendable () async -> Response)
    /// Work the responder runs on a thread of its own: the server suspends the connection and
    /// calls `start` on the event thread, which must only hand the work over (never block); the
    /// work calls `respond` exactly once, from any thread, with the response. Unlike
    /// ``later(_:)`` it takes no turn on Swift's cooperative pool, which costs two thread hand-offs
    /// per request when the work runs on a thread of its own anyway (a database's).
    case elsewhere(_ start: @Sendable (_ respond: @escaping @Sendable (Response) -> Void) -> Void)
}
