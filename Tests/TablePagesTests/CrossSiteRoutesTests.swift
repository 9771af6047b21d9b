import MicroHTTP
@testable import TablePagesTestSupport
import Testing
@testable import TablePages

/// The cross-site checks through a ``Site``'s router, without a socket: the host check in front of
/// every route, the origin and CSRF checks inside ``AccessControl/authorizeWrite(_:page:)``, and
/// the viewer's CSRF token in the page's head (never in the cached bytes).
@Suite("Cross-site checks on a site")
struct CrossSiteRoutesTests {
    static func request(
        _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], cookies: [String: String] = [:], query: [(name: String, value: String)] = []
    ) -> Request {
        var headers = headers
        if headers["Host"] == nil { headers["Host"] = "127.0.0.1:8080" }
        return Request(method: method, path: path, pathSegments: path.split(separator: "/").map(String.init), queryItems: query, headers: headers, cookies: cookies)
    }

    static func text(_ response: Response) -> String {
        String(decoding: response.bodyBytes, as: UTF8.self)
    }

    /// The `items` page as JSON, which changes (its version) with any write.
    static func itemsPage(_ site: Site) async -> String {
        text(await site.router.respond(to: request(.get, "/pages/items.json")))
    }

    /// A session cookie from the site's own sign-in link.
    static func signIn(_ site: Site) async throws -> [String: String] {
        let token = try #require(site.access.makeSignInPath().split(separator: "=", maxSplits: 1).last.map(String.init))
        let answer = await site.router.respond(to: request(.get, "/-/signin", query: [("token", token)]))
        let cookie = try #require(answer.headers["Set-Cookie"]?.split(separator: ";").first?.split(separator: "=", maxSplits: 1))
        return [String(cookie[0]): String(cookie[1])]
    }

    @Test("A Host the site does not answer for gets 421 on reads and writes, and the write changes nothing")
    func misdirectedHosts() async {
        let site = Site(pages: TestPages.registry(), access: AccessSettings(anonymousWrites: true, allowedHosts: ["tables.example"]))
        let before = await Self.itemsPage(site)
        #expect(site.router.immediateResponse(to: Self.request(.get, "/", headers: ["Host": "evil.example"]))?.status == 421)
        let write = Self.request(.post, "/pages/items/rows/item-1/select", headers: ["Host": "evil.example", "Accept": "application/json"])
        #expect(site.router.immediateResponse(to: write)?.status == 421)
        #expect(await site.router.respond(to: write).status == 421)
        #expect(site.router.immediateResponse(to: Self.request(.get, "/", headers: ["Host": "tables.example:8080"]))?.status == 200)
        #expect(await Self.itemsPage(site) == before)
    }

    @Test("An anonymous write allowed by anonymousWrites is still refused from another site, and passes from the page's own")
    func anonymousWritesStillCheckTheOrigin() async {
        let site = Site(pages: TestPages.registry(), access: AccessSettings(anonymousWrites: true))
        let before = await Self.itemsPage(site)
        let path = "/pages/items/rows/item-1/select"
        let crossSite = await site.router.respond(to: Self.request(.post, path, headers: ["Origin": "http://evil.example", "Accept": "application/json"]))
        #expect(crossSite.status == 403)
        #expect(await Self.itemsPage(site) == before)
        #expect(await site.router.respond(to: Self.request(.post, path, headers: ["Origin": "http://127.0.0.1:8080"])).status == 200)
        #expect(await Self.itemsPage(site) != before)
    }

    @Test("A signed-in browser's write needs its session's CSRF token: 403 without it or with another, 200 with it")
    func sessionWritesNeedTheToken() async throws {
        let site = Site(pages: TestPages.registry(), access: AccessSettings())
        let cookies = try await Self.signIn(site)
        let actor = try #require(site.access.actor(for: Self.request(.get, "/", cookies: cookies)))
        let token = try #require(site.access.csrfToken(for: actor))
        let path = "/pages/items/rows/item-2/select"
        let json: HTTPHeaders = ["Accept": "application/json", "Sec-Fetch-Site": "same-origin"]
        let before = await Self.itemsPage(site)

        let missing = await site.router.respond(to: Self.request(.post, path, headers: json, cookies: cookies))
        #expect(missing.status == 403 && Self.text(missing).contains("CSRF"))
        var wrong = json
        wrong["X-CSRF-Token"] = String(token.dropLast()) + (token.last == "A" ? "B" : "A")
        #expect(await site.router.respond(to: Self.request(.post, path, headers: wrong, cookies: cookies)).status == 403)
        var crossSite = json
        crossSite["X-CSRF-Token"] = token
        crossSite["Origin"] = "http://evil.example"
        #expect(await site.router.respond(to: Self.request(.post, path, headers: crossSite, cookies: cookies)).status == 403, "the token does not excuse another origin")
        #expect(await Self.itemsPage(site) == before)

        var right = json
        right["X-CSRF-Token"] = token
        #expect(await site.router.respond(to: Self.request(.post, path, headers: right, cookies: cookies)).status == 200)
        #expect(await Self.itemsPage(site) != before)
    }

    @Test("A signed-in viewer's page carries its CSRF token in the head, rendered or cached; other viewers' never do")
    func tokenInThePageHead() async throws {
        let site = Site(pages: TestPages.registry(), access: AccessSettings())
        let cookies = try await Self.signIn(site)
        let actor = try #require(site.access.actor(for: Self.request(.get, "/", cookies: cookies)))
        let meta = "<meta name=\"csrf-token\" content=\"\(try #require(site.access.csrfToken(for: actor)))\">"
        let html: HTTPHeaders = ["Accept": "text/html"]
        // Rendered (the first request), then from the cache on the event thread.
        let rendered = await site.router.respond(to: Self.request(.get, "/pages/items", headers: html, cookies: cookies))
        #expect(Self.text(rendered).contains(meta))
        let cached = try #require(site.router.immediateResponse(to: Self.request(.get, "/pages/items", headers: html, cookies: cookies)))
        #expect(Self.text(cached).contains(meta))
        // Anonymous viewers see the page without controls: a render of its own, then cached too.
        _ = await site.router.respond(to: Self.request(.get, "/pages/items", headers: html))
        let anonymous = try #require(site.router.immediateResponse(to: Self.request(.get, "/pages/items", headers: html)))
        #expect(!Self.text(anonymous).contains("csrf-token"))
        let otherCookies = try await Self.signIn(site)
        let other = try #require(site.router.immediateResponse(to: Self.request(.get, "/pages/items", headers: html, cookies: otherCookies)))
        #expect(!Self.text(other).contains(meta) && Self.text(other).contains("csrf-token"), "another session gets its own token")
        let json = await site.router.respond(to: Self.request(.get, "/pages/items.json", cookies: cookies))
        #expect(!Self.text(json).contains("csrf"))
    }

    @Test("A listed CORS origin gets its preflight answered and its responses labelled; the site's router does it")
    func corsThroughTheSite() throws {
        let site = Site(pages: TestPages.registry(), access: AccessSettings(corsOrigins: ["https://app.example"]))
        let preflight = try #require(site.router.immediateResponse(to: Self.request(
            .options, "/pages/items/rows/item-1/select", headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "POST"]
        )))
        #expect(preflight.status == 204 && preflight.headers["Access-Control-Allow-Origin"] == "https://app.example")
        let other = try #require(site.router.immediateResponse(to: Self.request(
            .options, "/pages/items/rows/item-1/select", headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"]
        )))
        #expect(other.headers["Access-Control-Allow-Origin"] == nil)
    }
}
