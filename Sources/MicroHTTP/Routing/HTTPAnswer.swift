/// How a request is answered, the one shape handlers, middleware, the ``Router`` and the server
/// share: the response now (on the event thread: a cache, a file in memory), later (work on
/// Swift's cooperative pool while the connection is suspended), or elsewhere (work on a thread of
/// the handler's own, such as a database's).
///
///     router.on(.get, "/pages/:page", answering: { request in
///         if let body = cache.body(for: request) { return .now(.html(body)) }
///         return .later { try await render(request) }
///     })
///
/// What a handler throws, in ``later(_:)`` or through ``elsewhere(_:)``'s `finish`, is answered by
/// ``Response/error(_:for:)``.
public enum HTTPAnswer: Sendable {
    /// The response, made without waiting.
    case now(Response)
    /// The work that makes the response; the server suspends the connection and runs it once.
    case later(@Sendable () async throws -> Response)
    /// Work that runs on a thread of its own: the server suspends the connection and calls `start`
    /// on the event thread, which must only hand the work over (never block); the work calls
    /// `finish` exactly once, from any thread. Unlike ``later(_:)`` it takes no turn on Swift's
    /// cooperative pool, which costs two thread hand-offs per request when the work runs on a
    /// thread of its own anyway.
    case elsewhere(_ start: @Sendable (_ finish: @escaping @Sendable (Result<Response, any Error>) -> Void) -> Void)

    /// This answer with `transform` applied to its response when it is made (a thrown error passes
    /// by untouched).
    public func map(_ transform: @escaping @Sendable (Response) -> Response) -> HTTPAnswer {
        switch self {
        case .now(let response): .now(transform(response))
        case .later(let work): .later { transform(try await work()) }
        case .elsewhere(let start): .elsewhere { finish in start { finish($0.map(transform)) } }
        }
    }

    /// This answer with what it throws answered as ``Response/error(_:for:)`` answers it.
    public func recovering(for request: Request) -> HTTPAnswer {
        switch self {
        case .now: self
        case .later(let work):
            .later {
                do { return try await work() } catch { return .error(error, for: request) }
            }
        case .elsewhere(let start):
            .elsewhere { finish in start { result in finish(.success(Self.response(result, for: request))) } }
        }
    }

    /// Makes the response, whichever way, and hands it to `finish` once (from any thread); what
    /// the work throws is answered for `request`. ``now(_:)`` finishes before this returns.
    public func run(for request: Request, _ finish: @escaping @Sendable (Response) -> Void) {
        switch self {
        case .now(let response): finish(response)
        case .later(let work):
            Task {
                let result: Result<Response, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                finish(Self.response(result, for: request))
            }
        case .elsewhere(let start): start { finish(Self.response($0, for: request)) }
        }
    }

    /// The response, awaited whichever way it is made.
    public func response(for request: Request) async -> Response {
        if case .now(let response) = self { return response }
        return await withCheckedContinuation { done in run(for: request) { done.resume(returning: $0) } }
    }

    private static func response(_ result: Result<Response, any Error>, for request: Request) -> Response {
        switch result {
        case .success(let response): response
        case .failure(let error): .error(error, for: request)
        }
    }
}
