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
    /// A handler on the event thread: it answers at once, or says how the answer is made later
    /// (``HTTPAnswer``); it must not block.
    public typealias Handler = @Sendable (Request) -> HTTPAnswer
    /// A handler that awaits; its connection is suspended meanwhile.
    public typealias AsyncHandler = @Sendable (Request) async throws -> Response
    /// A handler that answers at once on the event thread, for work that never blocks.
    public typealias ImmediateHandler = @Sendable (Request) -> Response

    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
        /// Whether a query with a malformed percent-escape reaches the handler (see ``Router/on(_:_:keepingMalformedEscapes:use:)``).
        let keepsMalformedEscapes: Bool
    }

    private var routes: [Route] = []
    // Positions in `routes`, by the literal first segment of their patterns; those whose first
    // segment is a parameter in `routesWithAnyFirstSegment`, and those of `/` in `rootRoutes`. A
    // request looks only at the routes its first segment can match, where it visited every route,
    // a copy and a match of each, on the event thread for every request.
    private var routesByFirstSegment: [String: [Int]] = [:]
    private var routesWithAnyFirstSegment: [Int] = []
    private var rootRoutes: [Int] = []
    private var middleware: [Middleware] = []

    /// The page browsers see for errors: the router's own (404, 405) and its handlers' and
    /// middleware's (a thrown error, a ``Response/error(_:_:for:)``), applied once to every response
    /// the router gives. ``ErrorPage/plainText`` by default; hand it to the ``Server`` too, for the
    /// errors the server answers itself.
    public var errorPage: ErrorPage = .plainText

    /// Creates a router with no routes.
    public init() {}

    /// Adds `middleware`, which every request passes through, after the middleware added before it.
    public mutating func use(_ middleware: @escaping Middleware) {
        self.middleware.append(middleware)
    }

    /// Adds a route whose handler awaits. With `keepingMalformedEscapes`, a query with a malformed
    /// percent-escape reaches it, kept as sent (``Request/queryHasMalformedEscape``), as a server it
    /// imitates would read it; otherwise such a request is refused with 400.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, keepingMalformedEscapes: Bool = false, use handler: @escaping AsyncHandler) {
        add(Route(method: method, pattern: RoutePattern(pattern), handler: { request in .later { try await handler(request) } }, keepsMalformedEscapes: keepingMalformedEscapes))
    }

    /// Adds a route whose handler runs on the event thread (so it must not block) and answers at
    /// once, say from a cache, or hands the work over (``HTTPAnswer/later(_:)``,
    /// ``HTTPAnswer/elsewhere(_:)``) with whatever it resolved, which the work need not look up again.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, answering handler: @escaping Handler) {
        add(Route(method: method, pattern: RoutePattern(pattern), handler: handler, keepsMalformedEscapes: false))
    }

    /// Adds a route whose handler answers at once on the event thread, without suspending the
    /// connection: for cheap, non-blocking work such as static files. (A separate name rather than an
    /// overload of ``on(_:_:keepingMalformedEscapes:use:)``, so a trailing closure never picks the event thread by accident.)
    public mutating func immediate(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping ImmediateHandler) {
        on(method, pattern, answering: { .now(handler($0)) })
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

    /// Routes `request` once and passes it through the middleware to its route: the answer, with
    /// what anything on the way threw answered (``Response/error(_:for:)``), the
    /// route's pattern on the response (``Response/route``) and the ``errorPage`` applied.
    public func answer(to request: Request) -> HTTPAnswer {
        let (route, matched, context) = resolve(request)
        let answer = Self.proceed(through: middleware, from: 0, matched, context, to: route)
        return Self.finished(answer, for: request, with: errorPage)
    }

    /// The answer of the middleware at `position` and on, then of `route`. Static, so that each
    /// `next` holds the middleware alone, not a copy of the router (its routes and their indexes).
    private static func proceed(through middleware: [Middleware], from position: Int, _ request: Request, _ context: RouteContext, to route: @escaping Handler) -> HTTPAnswer {
        guard position < middleware.count else {
            return labelled(route(request).recovering(for: request), context.route)
        }
        return middleware[position](request, context) { request, context in proceed(through: middleware, from: position + 1, request, context, to: route) }
            .recovering(for: request)
    }

    /// `answer` with the error page applied once to its response; for `.now`, the usual case,
    /// without wrapping anything.
    private static func finished(_ answer: HTTPAnswer, for request: Request, with errorPage: ErrorPage) -> HTTPAnswer {
        if case .now(let response) = answer { return .now(errorPage.apply(to: response)) }
        return answer.map { errorPage.apply(to: $0) }
    }

    /// `answer`, its response marked as answered by the route with `pattern`.
    private static func labelled(_ answer: HTTPAnswer, _ pattern: String?) -> HTTPAnswer {
        guard let pattern else { return answer }
        if case .now(var response) = answer {
            response.route = pattern
            return .now(response)
        }
        return answer.map { response in
            var response = response
            response.route = pattern
            return response
        }
    }

    /// The handler `request` reaches, the request with the parameters its route captured, and
    /// what the middleware learns of it. Without a route, the handler answers the routing error
    /// (404, 405) or an `OPTIONS` request.
    func resolve(_ request: Request) -> (Handler, Request, RouteContext) {
        var matched = request
        switch match(&matched) {
        case .success(let route):
            if request.queryHasMalformedEscape, !route.keepsMalformedEscapes {
                let refusal = HTTPError(400, "The query string has a malformed percent-escape.")
                return ({ request in .now(.error(refusal, for: request)) }, matched, RouteContext(route: route.pattern.description))
            }
            return (route.handler, matched, RouteContext(route: route.pattern.description))
        case .failure(let allowed):
            return ({ request in .now(Self.routingError(for: request, allowed: allowed.methods)) }, request, RouteContext(route: nil))
        }
    }

    /// The methods the path allows, when it has no route for the request's.
    struct Allowed: Error {
        let methods: [HTTPMethod]
    }

    /// The route `request` matches, its parameters set on `request`; else the methods its path allows.
    private func match(_ request: inout Request) -> Result<Route, Allowed> {
        // `/pages/todo.json` means `/pages/todo` as JSON (``Request/prefersJSON`` sees the suffix).
        // Routes that capture a file path (`*path`) are left out of that reading, so a file named
        // `data.json` keeps its name.
        if let last = request.pathSegments.last, last.utf8.count >= 5, last.utf8.reversed().starts(with: "nosj.".utf8), last.hasSuffix(".json") {
            // `/.json` is the root as JSON.
            let stem = String(last.dropLast(5))
            let stripped = Array(request.pathSegments.dropLast()) + (stem.isEmpty ? [] : [stem])
            if case .success(let route) = match(&request, segments: stripped, includingRemainders: false) { return .success(route) }
        }
        return match(&request, segments: request.pathSegments, includingRemainders: true)
    }

    private func match(_ request: inout Request, segments: [String], includingRemainders: Bool) -> Result<Route, Allowed> {
        // HEAD is GET without a body: libmicrohttpd drops the body and keeps Content-Length.
        let lookupMethod = request.method == .head ? HTTPMethod.get : request.method
        var allowed: [HTTPMethod] = []
        for position in candidates(for: segments) {
            let route = routes[position]
            guard includingRemainders || !route.pattern.capturesRemainder, let parameters = route.pattern.match(segments) else { continue }
            if route.method == lookupMethod {
                request.parameters = parameters
                return .success(route)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return .failure(Allowed(methods: allowed))
    }

    /// The answer to a request no route takes: 404 when its path has none, `OPTIONS`' 204 or 405
    /// with the methods it allows.
    private static func routingError(for request: Request, allowed: [HTTPMethod]) -> Response {
        if allowed.isEmpty {
            return .error(404, "No resource at \(request.path).", for: request)
        }
        var allowed = allowed
        if allowed.contains(.get) { allowed.insert(.head, at: allowed.firstIndex(of: .get)! + 1) }
        allowed.append(.options)
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        if request.method == .options {
            return Response(status: 204, headers: ["Allow": allow])
        }
        return .error(HTTPError(405, "\(request.method) is not allowed here; allowed: \(allow).", headers: ["Allow": allow]), for: request)
    }
}
