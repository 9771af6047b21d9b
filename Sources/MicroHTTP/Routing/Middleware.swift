/// Code that every request of a ``Router`` passes through on its way to its route, in one shape:
/// it gets the request, what the router found for it, and the rest of the way (`next`, which it
/// calls to go on, or not to answer itself), and returns the answer. It runs on the event thread,
/// so it must not block; what waits goes into the ``HTTPAnswer`` it returns.
///
///     router.use { request, context, next in
///         guard hosts.allows(request) else { return .now(.error(421, "Not this site.", for: request)) }
///         return next(request, context).map { response in decorated(response) }
///     }
///
/// Middleware added first runs first. Errors thrown further in reach it as responses already
/// (``Response/error(_:for:)``), so a `map` sees every response.
public typealias Middleware = @Sendable (_ request: Request, _ context: RouteContext, _ next: @escaping Next) -> HTTPAnswer

/// The rest of a request's way through a ``Router`` after a ``Middleware``: the middleware
/// added after it, then the route.
public typealias Next = @Sendable (_ request: Request, _ context: RouteContext) -> HTTPAnswer

/// What a ``Router`` found for a request before its ``Middleware`` runs.
public struct RouteContext: Sendable {
    /// The pattern of the route the request matched, e.g. `/pages/:page`; nil when none did (the
    /// route then answers 404, 405, or `OPTIONS` itself).
    public let route: String?
}
