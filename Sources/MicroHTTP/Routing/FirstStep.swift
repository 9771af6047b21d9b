/// What a two-step route's first step (on the event thread, where it must not block) made of a
/// request: an answer at once (say, from a cache), or what it resolved, which the route's second
/// step, asynchronous, takes instead of resolving it again.
///
///     router.on(.get, "/pages/:page", resolving: { request in
///         let page = pages.resolve(request)            // once per request
///         if let body = cache.body(for: page) { return .answer(.html(body)) }
///         return .resolved(page)
///     }, use: { request, page in try await render(page) })
public enum FirstStep<Resolved: Sendable>: Sendable {
    /// The response; the second step does not run.
    case answer(Response)
    /// What the second step takes.
    case resolved(Resolved)
    /// The response made on a thread of the route's own instead of the second step (see
    /// ``HTTPAnswer/elsewhere(_:)``): `start`, on the event thread, only hands the work over; the
    /// work calls `finish` exactly once, from any thread, with the response or with what the
    /// second step would have thrown (answered the same way).
    case elsewhere(_ start: @Sendable (_ finish: @escaping @Sendable (Result<Response, any Error>) -> Void) -> Void)
}
