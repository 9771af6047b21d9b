import MicroHTTP
import Synchronization
import TableKit
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

/// A request's page, actor and variant are resolved once, by the route's first step or its
/// middleware, and handed on: a cache miss does not look them up again on the async path.
@Suite("Each page request is resolved once")
struct RequestResolutionTests {
    /// Counts the calls of a page's variant resolver.
    final class Calls: Sendable {
        private let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// `items`, whose variant resolver counts its calls, over `TestItems`; anonymous clients may write.
    static func site(counting calls: Calls) -> Site {
        var pages = PageRegistry()
        pages.register(PageDefinition(name: "items", title: "Items", resolveVariant: { _ in
            calls.add()
            return [:]
        }) { _ in
            TestItems([TestItem(id: "a", title: "first"), TestItem(id: "b", title: "second")])
        })
        return Site(pages: pages, title: "Resolution", access: AccessSettings(anonymousWrites: true))
    }

    static func request(_ method: HTTPMethod, _ path: String, json: Bool, body: String = "") -> Request {
        var headers: HTTPHeaders = ["Accept": json ? "application/json" : "text/html"]
        if !body.isEmpty { headers["Content-Type"] = "application/json" }
        return Request(method: method, path: path, pathSegments: path.split(separator: "/").map(String.init), queryItems: [], headers: headers, cookies: [:], body: Array(body.utf8))
    }

    /// The answer as the server gets it: at once, or the work it runs later.
    static func serve(_ site: Site, _ request: Request) async -> (response: Response, immediate: Bool) {
        let answer = site.router.answer(to: request)
        if case .now(let response) = answer { return (response, true) }
        return (await answer.response(for: request), false)
    }

    @Test("a cache miss resolves the page, the actor and the variant once; so does a hit", arguments: [false, true])
    func cacheMissAndHit(json: Bool) async throws {
        let calls = Calls()
        let site = Self.site(counting: calls)
        let miss = await Self.serve(site, Self.request(.get, "/pages/items", json: json))
        #expect(miss.response.status == 200 && !miss.immediate)
        #expect(site.pageRequests.resolutionCount == 1)
        #expect(calls.value == 1, "the variant resolver ran \(calls.value) times")

        let hit = await Self.serve(site, Self.request(.get, "/pages/items", json: json))
        #expect(hit.response.status == 200 && hit.immediate)
        #expect(hit.response.bodyBytes == miss.response.bodyBytes)
        #expect(site.pageRequests.resolutionCount == 2)
        #expect(calls.value == 2)
    }

    @Test(
        "a cache miss of a page or its JSON parses the query, the format, the rows and the view once, and renders the rows parsed",
        arguments: ["/pages/items", "/pages/items.json"]
    )
    func cacheMissParsesOnce(path: String) async throws {
        let calls = Calls()
        let site = Self.site(counting: calls)
        var request = Self.request(.get, path, json: false)
        request.queryItems = [(name: "limit", value: "1")]
        let miss = await Self.serve(site, request)
        let body = String(decoding: miss.response.bodyBytes, as: UTF8.self)
        #expect(miss.response.status == 200 && !miss.immediate)
        #expect(site.pageRequests.resolutionCount == 1, "parsed \(site.pageRequests.resolutionCount) times")
        #expect(body.contains("first") && !body.contains("second"), "limit=1 reached the renderer: \(body)")
        #expect(miss.response.headers["Content-Type"]?.hasPrefix(path.hasSuffix(".json") ? "application/json" : "text/html") == true)
        // The hit reads the same parsed window: the cached one-row page.
        let hit = await Self.serve(site, request)
        #expect(hit.immediate && hit.response.bodyBytes == miss.response.bodyBytes)
        #expect(site.pageRequests.resolutionCount == 2)
        // A bad window is reported by the work, from what the first step parsed.
        request.queryItems = [(name: "limit", value: "0")]
        let refused = await Self.serve(site, request)
        #expect(refused.response.status == 400 && !refused.immediate)
        #expect(String(decoding: refused.response.bodyBytes, as: UTF8.self).contains("limit must be a whole number"))
        #expect(site.pageRequests.resolutionCount == 3)
    }

    @Test("a write behind the middleware, a section and a row are each resolved once")
    func writesAndReads() async throws {
        let calls = Calls()
        let site = Self.site(counting: calls)
        let selected = await Self.serve(site, Self.request(.post, "/pages/items/rows/a/select", json: true, body: "{}"))
        #expect(selected.response.status == 200)
        #expect(site.pageRequests.resolutionCount == 1 && calls.value == 1)
        let section = await Self.serve(site, Self.request(.get, "/pages/items/sections/items", json: true))
        #expect(section.response.status == 200)
        #expect(site.pageRequests.resolutionCount == 2 && calls.value == 2)
        let row = await Self.serve(site, Self.request(.get, "/pages/items/rows/b", json: true))
        #expect(row.response.status == 200)
        #expect(site.pageRequests.resolutionCount == 3 && calls.value == 3)
    }

    @Test("a write with a body that is neither a form nor JSON is refused by the middleware before the page is built")
    func bodyTypeRefusedFirst() async throws {
        let calls = Calls()
        let site = Self.site(counting: calls)
        var request = Self.request(.post, "/pages/items/rows/a/select", json: true, body: "x")
        request.headers["Content-Type"] = "text/plain"
        let refused = await Self.serve(site, request)
        #expect(refused.response.status == 415)
        #expect(site.hosts.existingHost(for: PageVariant(page: "items", parameters: [:], defaults: [:])) == nil)
    }
}
