/// What a responder makes of a request on the event thread: the response at once, or the work
/// that makes it while the connection is suspended, holding whatever the first look resolved
/// (the route, and what the route's first step found), so nothing is looked up twice.
public enum HTTPAnswer: Sendable {
    /// The response, made without waiting.
    case now(Response)
    /// The work that makes the response; the server suspends the connection and runs it once.
    case later(@Sendable () async -> Response)
}
