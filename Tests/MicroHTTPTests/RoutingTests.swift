import Foundation
import HostileTextSupport
import MicroHTTP
import PropertyBased
import Synchronization
import Testing

@Suite("Routing and messages, without a socket")
struct RoutingTests {
    static func request(_ method: HTTPMethod, _ path: String, accept: String? = nil) -> Request {
        var headers = HTTPHeaders()
        if let accept { headers.add("Accept", accept) }
        let segments = path.split(separator: "/").map { PercentEncoding.decode($0)! }
        return Request(method: method, path: path, pathSegments: segments, headers: headers)
    }

    @Test func patternCapturesParametersAndRemainder() {
        var router = Router()
        router.immediate(.get, "/pages/:page/rows/:row", { .text($0.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")) })
        router.immediate(.get, "/files/*path", { .text($0.parameters["path"]!) })
        #expect(router.immediateResponse(to: Self.request(.get, "/pages/p/rows/r"))?.bodyBytes == Array("page=p,row=r".utf8))
        #expect(router.immediateResponse(to: Self.request(.get, "/files/a/b/c.css"))?.bodyBytes == Array("a/b/c.css".utf8))
        #expect(router.immediateResponse(to: Self.request(.get, "/pages/p/rows"))?.status == 404)
        #expect(router.immediateResponse(to: Self.request(.get, "/pages/p/rows/r/extra"))?.status == 404)
    }

    @Test("Of the routes a request matches, the first added answers, whatever their first segments; 404 and 405 as before")
    func theFirstMatchingRouteAddedAnswers() async {
        // Patterns and paths from a few segments, so that many routes match each path: literal
        // first segments (looked up by name) and parameter ones (tried for every path) interleave.
        let pieces = ["a", "b", ":p", ":p", "*rest", ":q.json"]
        let pattern = Gen.element(of: pieces).map { $0! }.array(of: 0...2).map { "/" + $0.joined(separator: "/") }
        let route = zip(pattern, Gen.bool)
        // No `.json` paths: those are tried without the suffix first, by every route, which one
        // route alone cannot show.
        let path = Gen.element(of: ["a", "b", "c"]).map { $0! }.array(of: 0...3).map { "/" + $0.joined(separator: "/") }
        await propertyCheckFailingOnThrow(input: route.array(of: 1...8), path, Gen.bool) { routes, path, post in
            let method: HTTPMethod = post ? .post : .get
            var router = Router()
            var singles: [Router] = []
            for (index, (pattern, isPost)) in routes.enumerated() {
                router.immediate(isPost ? .post : .get, pattern, { _ in .text("\(index)") })
                var single = Router()
                single.immediate(isPost ? .post : .get, pattern, { _ in .text("\(index)") })
                singles.append(single)
            }
            let answer = router.immediateResponse(to: Self.request(method, path))
            // Each route alone says whether it takes the request (200) or takes its path by
            // another method (405).
            let alone = singles.map { $0.immediateResponse(to: Self.request(method, path))?.status }
            if let first = alone.firstIndex(of: 200) {
                #expect(answer?.status == 200)
                #expect(answer?.bodyBytes == Array("\(first)".utf8), "\(routes) for \(method) \(path)")
            } else {
                #expect(answer?.status == (alone.contains(405) ? 405 : 404), "\(routes) for \(method) \(path)")
            }
        }
    }

    @Test func asyncRoutesAreLeftForRespond() async {
        var router = Router()
        router.on(.post, "/act") { _ in .text("done") }
        #expect(router.immediateResponse(to: Self.request(.post, "/act")) == nil)
        #expect(await router.respond(to: Self.request(.post, "/act")).bodyBytes == Array("done".utf8))
    }

    @Test("An answer made elsewhere is not immediate; respond awaits it, and what it fails with answers as a handler's throw")
    func answerMadeElsewhereIsAwaitedByRespond() async {
        var router = Router()
        router.on(.get, "/e/:n", answering: { request in
            let n = request.parameters["n"] ?? ""
            return n == "second" ? .later { .text("second step of \(n)") } : .elsewhere { finish in
                switch n {
                case "conflict": finish(.failure(HTTPError(409, "taken")))
                case "broken": finish(.failure(CancellationError()))
                default: finish(.success(.text("made \(n)")))
                }
            }
        })
        #expect(router.immediateResponse(to: Self.request(.get, "/e/1")) == nil)
        #expect(await router.respond(to: Self.request(.get, "/e/1")).bodyBytes == Array("made 1".utf8))
        #expect(await router.respond(to: Self.request(.get, "/e/second")).bodyBytes == Array("second step of second".utf8))
        #expect(await router.respond(to: Self.request(.get, "/e/conflict")).status == 409)
        #expect(await router.respond(to: Self.request(.get, "/e/broken")).status == 500)
        #expect(await router.respond(to: Self.request(.get, "/e/1")).route == "/e/:n")
    }

    @Test("Middleware answers before any route, on both paths, and its map sees every response, thrown errors too, in the order added")
    func middlewareRefusesAndFinishes() async {
        var router = Router()
        router.immediate(.get, "/now") { _ in .text("now") }
        router.on(.post, "/later") { _ in .text("later") }
        router.on(.get, "/throws") { _ in throw HTTPError(409, "taken") }
        router.use { request, context, next in
            next(request, context).map { response in
                var response = response
                response.headers["X-Finished"] = "yes"
                response.headers["X-Route"] = context.route ?? "none"
                return response
            }
        }
        router.use { request, context, next in
            request.headers["X-Refuse"] == nil ? next(request, context) : .now(.error(421, "refused", json: true))
        }
        #expect(router.immediateResponse(to: Self.request(.get, "/missing"))?.headers["X-Route"] == "none")
        #expect(router.immediateResponse(to: Self.request(.get, "/now"))?.headers["X-Route"] == "/now")
        let thrown = await router.respond(to: Self.request(.get, "/throws"))
        #expect(thrown.status == 409 && thrown.headers["X-Finished"] == "yes" && thrown.route == "/throws")
        var refused = Self.request(.post, "/later")
        refused.headers["X-Refuse"] = "1"
        #expect(router.immediateResponse(to: refused)?.status == 421)
        #expect(await router.respond(to: refused).status == 421)
        #expect(router.immediateResponse(to: refused)?.headers["X-Finished"] == "yes", "the first middleware wraps the second's refusal")
        #expect(router.immediateResponse(to: Self.request(.get, "/now"))?.headers["X-Finished"] == "yes")
        #expect(router.immediateResponse(to: Self.request(.get, "/missing"))?.headers["X-Finished"] == "yes")
        let later = await router.respond(to: Self.request(.post, "/later"))
        #expect(later.bodyBytes == Array("later".utf8) && later.headers["X-Finished"] == "yes")
    }

    @Test("Middleware that holds a request back until a wait ends, then goes on, sees every kind of route answer as it would have")
    func middlewareRoutesAfterItsWait() async {
        var router = Router()
        router.immediate(.get, "/now") { _ in .text("now") }
        router.on(.get, "/later") { _ in .text("later") }
        router.on(.get, "/elsewhere", answering: { _ in .elsewhere { finish in finish(.success(.text("elsewhere"))) } })
        let waited = Mutex(0)
        // What the prerequisite waits for is known only once it was released: a request routed
        // before the wait ends would see the old state.
        let released = Mutex(false)
        router.use { request, context, next in
            next(request, context).map { response in
                var response = response
                response.headers["X-Released"] = released.withLock { $0 } ? "yes" : "no"
                return response
            }
        }
        router.use { request, context, next in
            guard request.headers["X-Wait"] != nil else { return next(request, context) }
            return .elsewhere { finish in
                waited.withLock { $0 += 1 }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                    released.withLock { $0 = true }
                    next(request, context).run(for: request) { finish(.success($0)) }
                }
            }
        }
        for path in ["/now", "/later", "/elsewhere"] {
            released.withLock { $0 = false }
            var request = Self.request(.get, path)
            request.headers["X-Wait"] = "1"
            #expect(router.immediateResponse(to: request) == nil, "\(path) waits")
            let response = await router.respond(to: request)
            #expect(response.bodyBytes == Array(path.dropFirst().utf8))
            #expect(response.headers["X-Released"] == "yes", "\(path) was routed after the wait")
        }
        // Without the header: no wait, as before.
        #expect(router.immediateResponse(to: Self.request(.get, "/now"))?.bodyBytes == Array("now".utf8))
        #expect(router.immediateResponse(to: Self.request(.get, "/missing"))?.status == 404)
    }

    @Test("The query by name is built with its items and kept in step when they change; the last value of a repeated name wins")
    func queryFollowsItsItems() async {
        let names = Gen.element(of: ["a", "b", "", "a b"]).map { $0! }
        let items = zip(names, HostileText.text).array(of: 0...8)
        await propertyCheckFailingOnThrow(input: items, items) { first, second in
            var request = Request(method: .get, path: "/q", pathSegments: ["q"], queryItems: first.map { (name: $0.0, value: $0.1) })
            #expect(request.query == Self.lastWins(first))
            request.queryItems = second.map { (name: $0.0, value: $0.1) }
            #expect(request.query == Self.lastWins(second))
        }
    }

    /// `items` by name, a later value of a name replacing an earlier one.
    static func lastWins(_ items: [(String, String)]) -> [String: String] {
        var query: [String: String] = [:]
        for (name, value) in items { query[name] = value }
        return query
    }

    @Test func headersAreCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        #expect(headers["content-type"] == "text/plain")
        headers["CONTENT-TYPE"] = "text/html"
        #expect(headers.count == 1)
        #expect(headers["Content-Type"] == "text/html")
    }

    @Test func prefersJSONBySuffixOrAccept() {
        #expect(Self.request(.get, "/pages/x.json").prefersJSON)
        #expect(Self.request(.get, "/pages/x", accept: "application/json").prefersJSON)
        #expect(!Self.request(.get, "/pages/x", accept: "text/html,application/json;q=0.9").prefersJSON)
        #expect(!Self.request(.get, "/pages/x").prefersJSON)
    }

    @Test func percentEncodingRoundTripsAndRejectsMalformed() {
        #expect(PercentEncoding.decode("a%20b%2Fc") == "a b/c")
        #expect(PercentEncoding.decode("a+b", plusAsSpace: true) == "a b")
        #expect(PercentEncoding.decode("bad%2") == nil)
        #expect(PercentEncoding.decode("bad%zz") == nil)
        #expect(PercentEncoding.decode("%ff") == nil)
        #expect(PercentEncoding.encode("a b/ü") == "a%20b%2F%C3%BC")
    }

    @Test("A query with a malformed escape reaches only a route that keeps it; every other route answers 400")
    func malformedEscapesReachOnlyRoutesThatKeepThem() async {
        var router = Router()
        router.on(.get, "/kept", keepingMalformedEscapes: true, use: { request in .text(request.query["a"] ?? "") })
        router.on(.get, "/strict", use: { request in .text(request.query["a"] ?? "") })
        router.on(.post, "/kept", use: { request in .text(request.query["a"] ?? "") })
        // `/x.json` is answered by the route of `/x`: the same rule holds.
        for (method, path, status) in [(HTTPMethod.get, "/kept", 200), (.get, "/kept.json", 200), (.head, "/kept", 200), (.get, "/strict", 400), (.get, "/strict.json", 400), (.post, "/kept", 400)] {
            var request = Request(method: method, path: path, pathSegments: [String(path.dropFirst())], queryItems: [("a", "C%Z")])
            request.queryHasMalformedEscape = true
            let response = await router.respond(to: request)
            #expect(response.status == status, "\(path)")
            if status == 200, method == .get { #expect(response.bodyBytes == Array("C%Z".utf8)) }
            request.queryHasMalformedEscape = false
            #expect(await router.respond(to: request).status == 200, "\(path)")
        }
    }

    @Test func errorBodiesEscapeTheMessage() {
        let json = Response.error(400, "bad \"x\" <y>", json: true)
        #expect(String(decoding: json.bodyBytes, as: UTF8.self) == #"{"error":{"status":400,"message":"bad \"x\" \u003cy\u003e"}}"#)
        // Browsers get plain text by default: nothing to escape, nothing that a browser would run.
        let text = Response.error(400, "<script>", json: false)
        #expect(text.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(String(decoding: text.bodyBytes, as: UTF8.self) == "400 Bad Request\n\n<script>\n")
        let page = Response.error(404, "x", json: false)
        #expect(page.headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
    }

    @Test func aRoutersErrorPageRendersEveryBrowserErrorItAnswers() async {
        var router = Router()
        router.errorPage = ErrorPage { status, message in .html("<p>\(status): \(message.count)</p>", status: status) }
        router.on(.get, "/fails") { _ in throw HTTPError(409, "busy", headers: ["Retry-After": "1"]) }
        router.on(.post, "/only-post") { _ in .text("ok") }
        let thrown = await router.respond(to: Request(method: .get, path: "/fails", pathSegments: ["fails"]))
        #expect(thrown.status == 409)
        #expect(String(decoding: thrown.bodyBytes, as: UTF8.self) == "<p>409: 4</p>")
        #expect(thrown.headers["Retry-After"] == "1")
        #expect(thrown.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(thrown.errorMessage == nil)
        let notAllowed = router.immediateResponse(to: Request(method: .get, path: "/only-post", pathSegments: ["only-post"]))
        #expect(notAllowed?.status == 405)
        #expect(notAllowed?.headers["Allow"] == "POST, OPTIONS")
        #expect(notAllowed.map { String(decoding: $0.bodyBytes, as: UTF8.self) }?.hasPrefix("<p>405: ") == true)
        // JSON clients always get the JSON error, whatever the page.
        let json = await router.respond(to: Request(method: .get, path: "/fails.json", pathSegments: ["fails.json"]))
        #expect(String(decoding: json.bodyBytes, as: UTF8.self) == #"{"error":{"status":409,"message":"busy"}}"#)
    }
}
