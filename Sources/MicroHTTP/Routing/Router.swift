/// Maps method + path patterns to handlers; answers 404, 405 (with `Allow`), HEAD and OPTIONS itself,
/// and routes `/x.json` to the route for `/x` when no route matches the suffixed path.
///
///     var router = Router()
///     router.on(.get, "/pages/:page") { request in
///         .html("<h1>\(request.parameters["page"]!)</h1>")
///     }
///     router.immediate(.get, "/public/*path", files.respond)
///     let server = Server(configuration: .init(port: 8080), responder: router)
public struct Router: HTTPResponder {
    /// A handler that awaits; its connection is suspended meanwhile.
    public typealias AsyncHandler = @Sendable (Request) async throws -> Response
    /// A handler that answers at once on the event thread, for work that never blocks.
    public typealias ImmediateHandler = @Sendable (Request) -> Response

    /// A handler that answers at once when it can (say, from a cache) and returns nil otherwise.
    public typealias OptionalImmediateHandler = @Sendable (Request) -> Response?

    enum Handler: Sendable {
        case immediate(ImmediateHandler)
        case asynchronous(AsyncHandler)
        /// A first step on the event thread that answers, or hands the second step what it resolved.
        case twoStep(@Sendable (Request) -> Step)
    }

    /// A two-step route's first step, type-erased: an answer, or the second step bound to what
    /// the first resolved.
    enum Step: Sendable {
        case answer(Response)
        case later(@Sendable () async throws -> Response)
        case elsewhere(@Sendable (@escaping @Sendable (Result<Response, any Error>) -> Void) -> Void)
    }

    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
    }

    /// What a request matched: a route (its handler, the request with its parameters, and the
    /// pattern, which the route's responses carry as ``Response/route``), or a response at once.
    enum Resolution {
        case route(Handler, Request, pattern: String)
        case response(Response)
    }

    private var routes: [Route] = []
    // Positions in `routes`, by the literal first segment of their patterns; those whose first
    // segment is a parameter in `routesWithAnyFirstSegment`, and those of `/` in `rootRoutes`. A
    // request looks only at the routes its first segment can match, where it visited every route,
    // a copy and a match of each, on the event thread for every request.
    private var routesByFirstSegment: [String: [Int]] = [:]
    private var routesWithAnyFirstSegment: [Int] = []
    private var rootRoutes: [Int] = []
    // The methods and patterns (`GET /a/:b`) of the routes that read a query with a malformed percent-escape
    // (``Request/queryHasMalformedEscape``); the router refuses such a query for every other route.
    private var routesKeepingMalformedEscapes: Set<String> = []

    /// The page browsers see for errors: the router's own (404, 405), its handlers' (a thrown
    /// ``HTTPError``, a ``Response/error(_:_:for:)``) and, through the server, the server's.
    /// ``ErrorPage/plainText`` by default.
    public var errorPage: ErrorPage = .plainText

    /// Checked before any route, on the event thread: a response refuses the request (say, a
    /// `Host` the site does not answer for), nil lets it through. Must be cheap and never block.
    public var admission: (@Sendable (Request) -> Response?)?

    /// Checked after ``admission``, on the event thread: nil routes the request at once; a function
    /// holds it back until that function calls back (from any thread), then routes it. For a
    /// request that names something not known yet but perhaps about to be (say, an access token
    /// created a moment ago, before credentials are re-read). Must be cheap and never block; the
    /// function it returns must only hand the wait over.
    public var prerequisite: (@Sendable (Request) -> (@Sendable (_ ready: @escaping @Sendable () -> Void) -> Void)?)?

    /// Adjusts every response the routes and the ``admission`` give (say, CORS headers), on
    /// whichever thread made it.
    public var finishing: (@Sendable (Request, inout Response) -> Void)?

    /// Creates a router with no routes.
    public init() {}

    /// Adds a route whose handler awaits. With `keepingMalformedEscapes`, a query with a malformed
    /// percent-escape reaches it, kept as sent (``Request/queryHasMalformedEscape``), as a server it
    /// imitates would read it; otherwise such a request is refused with 400.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, keepingMalformedEscapes: Bool = false, use handler: @escaping AsyncHandler) {
        let route = Route(method: method, pattern: RoutePattern(pattern), handler: .asynchronous(handler))
        if keepingMalformedEscapes { routesKeepingMalformedEscapes.insert("\(method.rawValue) \(route.pattern.description)") }
        add(route)
    }

    /// Adds a route whose handler answers at once on the event thread, without suspending the
    /// connection: for cheap, non-blocking work such as static files. (A separate name rather than an
    /// overload of ``on(_:_:keepingMalformedEscapes:use:)``, so a trailing closure never picks the event thread by accident.)
    public mutating func immediate(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping ImmediateHandler) {
        add(Route(method: method, pattern: RoutePattern(pattern), handler: .immediate(handler)))
    }

    /// Adds a route that first tries to answer at once on the event thread (e.g. from a cache) and
    /// otherwise suspends the connection and awaits `handler`.
    ///
    ///     router.on(.get, "/pages/:page", tryingImmediately: cachedPage, use: renderPage)
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, tryingImmediately immediate: @escaping OptionalImmediateHandler,
        use handler: @escaping AsyncHandler
    ) {
        on(method, pattern, resolving: { request in immediate(request).map { .answer($0) } ?? .resolved(()) }, use: { request, _ in try await handler(request) })
    }

    /// Adds a route in two steps: `first` runs on the event thread (so it must not block) and
    /// answers at once or resolves what the request names; otherwise the connection is suspended
    /// and `handler` awaits with what `first` resolved, which it need not look up again.
    public mutating func on<Resolved: Sendable>(
        _ method: HTTPMethod, _ pattern: String, resolving first: @escaping @Sendable (Request) -> FirstStep<Resolved>,
        use handler: @escaping @Sendable (Request, Resolved) async throws -> Response
    ) {
        let step: @Sendable (Request) -> Step = { request in
            switch first(request) {
            case .answer(let response): .answer(response)
            case .resolved(let resolved): .later { try await handler(request, resolved) }
            case .elsewhere(let start): .elsewhere(start)
            }
        }
        add(Route(method: method, pattern: RoutePattern(pattern), handler: .twoStep(step)))
    }

    private mutating func add(_ route: Route) {
        switch route.pattern.components.first {
        case .literal(let first)?: routesByFirstSegment[first, default: []].append(routes.count)
        case nil: rootRoutes.append(routes.count)
        default: routesWithAnyFirstSegment.append(routes.count)
        }
        routes.append(route)
    }

    /// The positions of the routes that `segments` may match, in the order they were added.
    private func candidates(for segments: [String]) -> MergedPositions {
        guard let first = segments.first else { return MergedPositions(rootRoutes, []) }
        return MergedPositions(routesByFirstSegment[first] ?? [], routesWithAnyFirstSegment)
    }

    /// Two ascending lists of positions, visited as one ascending list, so that of the routes a
    /// request may match, the first added still wins.
    struct MergedPositions: Sequence, IteratorProtocol {
        private let first: [Int]
        private let second: [Int]
        private var i = 0
        private var j = 0

        init(_ first: [Int], _ second: [Int]) {
            (self.first, self.second) = (first, second)
        }

        mutating func next() -> Int? {
            if i < first.count, j == second.count || first[i] < second[j] {
                defer { i += 1 }
                return first[i]
            }
            guard j < second.count else { return nil }
            defer { j += 1 }
            return second[j]
        }
    }

    /// Admits, routes and runs the first step of `request` once: the response at once (routing
    /// errors, immediate routes, a first step's answer), or the route's handler to await later,
    /// bound to the route found and what its first step resolved.
    public func answer(to request: Request) -> HTTPAnswer {
        if let refusal = admission?(request) { return .now(finished(errorPage.apply(to: refusal), for: request)) }
        if let wait = prerequisite?(request) {
            return .elsewhere { [self] respond in
                wait {
                    switch routedAnswer(to: request) {
                    case .now(let response): respond(response)
                    case .later(let work): Task { respond(await work()) }
                    case .elsewhere(let start): start(respond)
                    }
                }
            }
        }
        return routedAnswer(to: request)
    }

    /// ``answer(to:)`` for an admitted request, whatever its ``prerequisite``.
    private func routedAnswer(to request: Request) -> HTTPAnswer {
        let later: @Sendable () async throws -> Response
        let pattern: String
        switch resolve(request) {
        case .response(let response):
            return .now(finished(errorPage.apply(to: response), for: request))
        case .route(.immediate(let handler), let matched, let matchedPattern):
            return .now(finished(errorPage.apply(to: Self.labelled(handler(matched), matchedPattern)), for: request))
        case .route(.twoStep(let step), let matched, let matchedPattern):
            switch step(matched) {
            case .answer(let response):
                return .now(finished(errorPage.apply(to: Self.labelled(response, matchedPattern)), for: request))
            case .later(let work):
                (later, pattern) = (work, matchedPattern)
            case .elsewhere(let start):
                return .elsewhere { [self] respond in
                    start { result in
                        let response = switch result {
                        case .success(let response): response
                        case .failure(let error): Self.response(to: error, for: request)
                        }
                        respond(finished(errorPage.apply(to: Self.labelled(response, matchedPattern)), for: request))
                    }
                }
            }
        case .route(.asynchronous(let handler), let matched, let matchedPattern):
            (later, pattern) = ({ try await handler(matched) }, matchedPattern)
        }
        return .later { [self] in
            finished(errorPage.apply(to: Self.labelled(await Self.run(later, for: request), pattern)), for: request)
        }
    }

    /// Answers immediate routes and routing errors; nil when the request needs the asynchronous
    /// path (``answer(to:)`` hands that over without looking anything up again).
    public func immediateResponse(to request: Request) -> Response? {
        guard case .now(let response) = answer(to: request) else { return nil }
        return response
    }

    /// The response to `request`, whichever way it is made, turning a thrown ``HTTPError`` into its response.
    public func respond(to request: Request) async -> Response {
        switch answer(to: request) {
        case .now(let response): response
        case .later(let work): await work()
        case .elsewhere(let start): await withCheckedContinuation { done in start { done.resume(returning: $0) } }
        }
    }

    private func finished(_ response: Response, for request: Request) -> Response {
        guard let finishing else { return response }
        var response = response
        finishing(request, &response)
        return response
    }

    /// Runs a handler, turning what it throws into a response.
    private static func run(_ work: @Sendable () async throws -> Response, for request: Request) async -> Response {
        do {
            return try await work()
        } catch {
            return response(to: error, for: request)
        }
    }

    /// What a handler's thrown `error` answers: an ``HTTPError`` its own response, anything else a 500.
    private static func response(to error: any Error, for request: Request) -> Response {
        guard let error = error as? HTTPError else {
            // Not the client's fault and not for the client's eyes: the server logs the status.
            return Response.error(500, "The server could not answer this request.", for: request)
        }
        return Response.error(error, for: request)
    }

    /// `response`, marked as answered by the route with `pattern`.
    private static func labelled(_ response: Response, _ pattern: String) -> Response {
        var response = response
        response.route = pattern
        return response
    }

    func resolve(_ request: Request) -> Resolution {
        let resolution = resolveIgnoringEscapes(request)
        let method = request.method == .head ? HTTPMethod.get : request.method
        if request.queryHasMalformedEscape, case .route(_, _, let pattern) = resolution, !routesKeepingMalformedEscapes.contains("\(method.rawValue) \(pattern)") {
            return .response(.error(400, "The query string has a malformed percent-escape.", for: request))
        }
        return resolution
    }

    private func resolveIgnoringEscapes(_ request: Request) -> Resolution {
        // `/pages/todo.json` means `/pages/todo` as JSON (``Request/prefersJSON`` sees the suffix).
        // Routes that capture a file path (`*path`) are left out of that reading, so a file named
        // `data.json` keeps its name.
        if let last = request.pathSegments.last, last.utf8.count >= 5, last.utf8.reversed().starts(with: "nosj.".utf8), last.hasSuffix(".json") {
            // `/.json` is the root as JSON.
            let stem = String(last.dropLast(5))
            let stripped = Array(request.pathSegments.dropLast()) + (stem.isEmpty ? [] : [stem])
            if case .route(let handler, let matched, let pattern) = resolve(request, segments: stripped, includingRemainders: false) {
                return .route(handler, matched, pattern: pattern)
            }
        }
        return resolve(request, segments: request.pathSegments, includingRemainders: true)
    }

    private func resolve(_ request: Request, segments: [String], includingRemainders: Bool) -> Resolution {
        // HEAD is GET without a body: libmicrohttpd drops the body and keeps Content-Length.
        let lookupMethod = request.method == .head ? HTTPMethod.get : request.method
        var allowed: [HTTPMethod] = []
        for position in candidates(for: segments) {
            let route = routes[position]
            guard includingRemainders || !route.pattern.capturesRemainder, let parameters = route.pattern.match(segments) else { continue }
            if route.method == lookupMethod {
                var request = request
                request.parameters = parameters
                return .route(route.handler, request, pattern: route.pattern.description)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.isEmpty {
            return .response(.error(404, "No resource at \(request.path).", for: request))
        }
        if allowed.contains(.get) { allowed.insert(.head, at: allowed.firstIndex(of: .get)! + 1) }
        allowed.append(.options)
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        if request.method == .options {
            return .response(Response(status: 204, headers: ["Allow": allow]))
        }
        var response = Response.error(405, "\(request.method) is not allowed here; allowed: \(allow).", for: request)
        response.headers["Allow"] = allow
        return .response(response)
    }
}
