import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

/// Who may write: every route that changes data refuses anonymous clients (401) and actors without
/// the right (403) before anything changes; sign-in, tokens and their revocation.
@Suite("Access control routes")
struct AccessControlRoutesTests {
    /// Every route that changes the `items` page, with a body that would change it.
    static let writes: [(method: HTTPMethod, path: String, body: String, form: Bool)] = [
        (.post, "/pages/items/rows/item-1/select", "{}", false),
        (.post, "/pages/items/rows/item-1/actions/rename", #"{"title":"Renamed"}"#, false),
        (.delete, "/pages/items/rows/item-1", "", false),
        (.post, "/pages/items/rows/item-1", "_method=DELETE", true),
        (.post, "/pages/items/rows/item-1/move", #"{"section":"items","before":"item-4"}"#, false),
        (.post, "/pages/items/sections/items/rows", #"{"title":"New"}"#, false),
    ]

    static func request(
        _ method: HTTPMethod, _ path: String, body: String = "", form: Bool = false, json: Bool = true,
        headers extra: HTTPHeaders = [:], cookies: [String: String] = [:], query: [(name: String, value: String)] = []
    ) -> Request {
        var headers = extra
        if !body.isEmpty { headers["Content-Type"] = form ? "application/x-www-form-urlencoded" : "application/json" }
        headers["Accept"] = json ? "application/json" : "text/html"
        return Request(
            method: method, path: path, pathSegments: path.split(separator: "/").map(String.init),
            queryItems: query, headers: headers, cookies: cookies, body: Array(body.utf8)
        )
    }

    /// The `items` page as JSON: equal before and after means nothing changed (its version included).
    static func itemsPage(_ site: Site) async -> String {
        String(decoding: await site.router.respond(to: request(.get, "/pages/items.json")).bodyBytes, as: UTF8.self)
    }

    static func site(_ access: AccessSettings, logger: Logger = Logger(label: "AccessControlRoutesTests")) -> Site {
        Site(pages: TestPages.registry(), logger: logger, access: access)
    }

    @Test("Anonymous writes on every mutating route get 401, as JSON for scripts, and change nothing")
    func anonymousWritesAreRefused() async throws {
        let site = Self.site(AccessSettings())
        let before = await Self.itemsPage(site)
        #expect(before.contains(#""id":"item-1""#))
        for write in Self.writes {
            let response = await site.router.respond(to: Self.request(write.method, write.path, body: write.body, form: write.form))
            #expect(response.status == 401, "\(write.method) \(write.path)")
            #expect(response.headers["WWW-Authenticate"] == #"Bearer realm="tablepages""#)
            let text = String(decoding: response.bodyBytes, as: UTF8.self)
            #expect(text.hasPrefix(#"{"error":{"status":401,"message":"Sign in"#), "\(text)")
        }
        #expect(await Self.itemsPage(site) == before)
    }

    @Test("A browser's anonymous form post gets the site's 401 page, which says how to sign in")
    func anonymousBrowserGetsTheErrorPage() async {
        let site = Self.site(AccessSettings())
        let response = await site.router.respond(to: Self.request(.post, "/pages/items/rows/item-1", body: "_method=DELETE", form: true, json: false))
        #expect(response.status == 401)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        let page = String(decoding: response.bodyBytes, as: UTF8.self)
        #expect(page.contains("<h1>401 Unauthorized</h1>"))
        #expect(page.contains("sign-in link"))
    }

    @Test("Prefetch is a read: anonymous clients may send it")
    func prefetchNeedsNoActor() async {
        let site = Self.site(AccessSettings())
        let response = await site.router.respond(to: Self.request(.post, "/pages/items/prefetch", body: #"{"rows":"item-1"}"#))
        #expect(response.status == 204)
    }

    @Test("A read-only token, a token for other pages and an unknown token get 403, 403 and 401 on every route; nothing changes")
    func actorsWithoutTheRightAreRefused() async throws {
        let store = MemoryCredentialStore()
        let readOnly = try AccessTokens.create(name: "reader", mayWrite: false, pages: nil, in: store)
        let elsewhere = try AccessTokens.create(name: "elsewhere", mayWrite: true, pages: ["other"], in: store)
        let site = Self.site(AccessSettings(credentials: store))
        let before = await Self.itemsPage(site)
        for (token, status) in [(readOnly, 403), (elsewhere, 403), (AccessTokens.make(), 401)] {
            for write in Self.writes {
                let request = Self.request(write.method, write.path, body: write.body, form: write.form, headers: ["Authorization": "Bearer " + token])
                let response = await site.router.respond(to: request)
                #expect(response.status == status, "\(write.method) \(write.path)")
                // The access log names who was refused, when it was someone.
                #expect(response.logFields.first(where: { $0.name == "actor" })?.value == (status == 403 ? site.access.actor(for: request)?.id : nil))
            }
        }
        #expect(await Self.itemsPage(site) == before)
    }

    @Test("A token that may write, and a signed-in browser, can write; each write is logged with its actor")
    func actorsWithTheRightWriteAndAreLogged() async throws {
        let store = MemoryCredentialStore()
        let token = try AccessTokens.create(name: "script", mayWrite: true, pages: ["items"], in: store)
        let log = LogRecorder()
        var logger = log.logger()
        logger.logLevel = .info
        let site = Self.site(AccessSettings(credentials: store), logger: logger)
        let deleted = await site.router.respond(to: Self.request(.delete, "/pages/items/rows/item-2", headers: ["Authorization": "Bearer " + token]))
        #expect(deleted.status == 200)
        let scriptID = "token:script:" + AccessTokens.hash(token).prefix(16)
        #expect(deleted.logFields == [LogField(name: "actor", value: scriptID)])
        #expect(!(await Self.itemsPage(site)).contains(#""id":"item-2""#))

        let newSession = SessionCookie.new()
        let cookie = newSession.value(signedWith: site.access.secret)
        // A browser's form carries its session's CSRF token (guard's check).
        let csrf = site.access.secret.csrfToken(forSession: newSession.sessionID)
        let session = Self.request(.post, "/pages/items/rows/item-3", body: "_method=DELETE&_csrf=" + csrf, form: true, json: false, cookies: [SessionCookie.name: cookie])
        #expect(site.access.actor(for: session)?.id.hasPrefix("session:") == true)
        let redirected = await site.router.respond(to: session)
        #expect(redirected.status == 303)
        #expect(!(await Self.itemsPage(site)).contains(#""id":"item-3""#))

        _ = await site.router.respond(to: Self.request(.post, "/pages/items/rows/item-4/select"))
        let lines = log.metadata(of: "write")
        #expect(lines.count == 3)
        #expect(lines.first?["actor"] == .string(scriptID))
        #expect(lines.first?["page"] == "items")
        #expect(lines.first?["row"] == "item-2")
        #expect(lines.first?["action"] == "delete")
        #expect(lines.first?["status"]?.description == "200")
        #expect(lines.dropFirst().first?["status"]?.description == "303")
        #expect(lines.last?["actor"] == "anonymous")
        #expect(lines.last?["status"]?.description == "401")
    }

    @Test("With anonymousWrites, anonymous clients write")
    func anonymousWritesWhenAllowed() async {
        let site = Self.site(AccessSettings(anonymousWrites: true))
        let response = await site.router.respond(to: Self.request(.delete, "/pages/items/rows/item-1"))
        #expect(response.status == 200)
        #expect(!(await Self.itemsPage(site)).contains(#""id":"item-1""#))
    }

    @Test("The sign-in link sets a signed HttpOnly SameSite=Lax cookie; a wrong token gets 403 and no cookie; sign-out clears it")
    func signInAndOut() async throws {
        let site = Self.site(AccessSettings(credentials: MemoryCredentialStore()))
        let path = site.access.makeSignInPath()
        #expect(path.hasPrefix("/-/signin?token="))
        let token = String(path.dropFirst("/-/signin?token=".count))
        let signedIn = await site.router.respond(to: Self.request(.get, "/-/signin", json: false, query: [("token", token)]))
        #expect(signedIn.status == 303)
        #expect(signedIn.headers["Location"] == "/")
        let setCookie = try #require(signedIn.headers["Set-Cookie"])
        for attribute in ["; Path=/", "; HttpOnly", "; SameSite=Lax", "; Max-Age="] { #expect(setCookie.contains(attribute)) }
        let value = try #require(setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        let session = try #require(SessionCookie.verify(value, secret: site.access.secret, lifetime: .seconds(60)))
        let csrf: HTTPHeaders = ["X-CSRF-Token": site.access.secret.csrfToken(forSession: session.sessionID)]
        let write = Self.request(.post, "/pages/items/rows/item-1/select", body: "{}", headers: csrf, cookies: [SessionCookie.name: value])
        #expect(await site.router.respond(to: write).status == 200)

        for wrong in [token + "x", "", String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")] {
            let refused = await site.router.respond(to: Self.request(.get, "/-/signin", json: false, query: [("token", wrong)]))
            #expect(refused.status == 403)
            #expect(refused.headers["Set-Cookie"] == nil)
        }
        // A GET only offers the button (a link from another site must not sign anyone out).
        let asked = await site.router.respond(to: Self.request(.get, "/-/signout", json: false, cookies: [SessionCookie.name: value]))
        #expect(asked.status == 200)
        #expect(asked.headers["Set-Cookie"] == nil)
        #expect(String(decoding: asked.bodyBytes, as: UTF8.self).contains("<form method=\"post\" action=\"/-/signout\">"))
        let crossSite = await site.router.respond(to: Self.request(
            .post, "/-/signout", json: false, headers: ["Origin": "http://evil.example"], cookies: [SessionCookie.name: value]))
        #expect(crossSite.status == 403)
        #expect(crossSite.headers["Set-Cookie"] == nil)
        let signedOut = await site.router.respond(to: Self.request(.post, "/-/signout", json: false, cookies: [SessionCookie.name: value]))
        #expect(signedOut.status == 303)
        #expect(signedOut.headers["Set-Cookie"]?.hasPrefix(SessionCookie.name + "=; ") == true)
        #expect(signedOut.headers["Set-Cookie"]?.contains("Max-Age=0") == true)
    }

    @Test("Rotating the secret signs every browser out and voids the sign-in links not used yet")
    func rotatingTheSecretSignsOut() async throws {
        let store = MemoryCredentialStore()
        let site = Self.site(AccessSettings(credentials: store))
        let unused = String(site.access.makeSignInPath().split(separator: "=", maxSplits: 1)[1])
        let session = SessionCookie.new()
        let cookie = session.value(signedWith: site.access.secret)
        let csrf: HTTPHeaders = ["X-CSRF-Token": site.access.secret.csrfToken(forSession: session.sessionID)]
        let write = Self.request(.post, "/pages/items/rows/item-1/select", body: "{}", headers: csrf, cookies: [SessionCookie.name: cookie])
        #expect(await site.router.respond(to: write).status == 200)
        _ = try store.rotateSessionSecret()
        site.access.refreshNow()
        #expect(await site.router.respond(to: write).status == 401)
        // A link made before the rotation, never used, signs in no more.
        let refused = await site.router.respond(to: Self.request(.get, "/-/signin", json: false, query: [("token", unused)]))
        #expect(refused.status == 403 && refused.headers["Set-Cookie"] == nil)
    }

    @Test("A revoked token gets 401 once the credentials are re-read, and its open event stream is closed")
    func revokedTokensAreRefusedAndTheirStreamsClosed() async throws {
        let store = MemoryCredentialStore()
        let token = try AccessTokens.create(name: "watcher", mayWrite: true, pages: nil, in: store)
        // A long refresh interval: this test re-reads by hand, so it sees the revocation itself take effect.
        let access = AccessSettings(credentials: store, refreshInterval: .seconds(3600))
        try await withSite(access: access) { server, site in
            let connection = try await TestConnection(port: server.port)
            let stream = try await connection.openStream("/pages/items/events", headers: [("Authorization", "Bearer " + token)])
            #expect(stream.status == 200)
            _ = try await connection.readStream(until: { $0.contains("retry:") })
            let writer = try await TestConnection(port: server.port)
            let bearer = [("Authorization", "Bearer " + token), ("Accept", "application/json")]
            #expect(try await writer.request("POST", "/pages/items/rows/item-1/select", headers: bearer).status == 200)

            #expect(try store.revokeToken(named: "watcher"))
            site.access.refreshNow()
            #expect(try await writer.request("POST", "/pages/items/rows/item-1/select", headers: bearer).status == 401)
            // Ends (rather than timing out) only when the server closes the stream.
            _ = try await connection.readStream(until: { _ in false }, timeout: .seconds(5))
        }
    }

    @Test("A session's open event stream closes when its cookie expires, and the cookie then writes no more")
    func expiredSessionsStreamsAreClosed() async throws {
        let clock = ManualClock()
        // Re-read by hand (a long interval), at instants the test sets with its own clock.
        var access = AccessSettings(credentials: MemoryCredentialStore(), sessionLifetime: .seconds(3600), refreshInterval: .seconds(3600))
        access.now = clock.now
        try await withSite(access: access) { server, site in
            let session = SessionCookie.new(now: clock.now())
            let cookie = SessionCookie.name + "=" + session.value(signedWith: site.access.secret)
            let signedIn = [("Cookie", cookie), ("X-CSRF-Token", site.access.secret.csrfToken(forSession: session.sessionID)), ("Accept", "application/json")]
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.openStream("/pages/items/events", headers: [("Cookie", cookie)]).status == 200)
            _ = try await connection.readStream(until: { $0.contains("retry:") })

            // A second before it expires the session still writes, and its stream still follows the page.
            clock.advance(by: 3599)
            site.access.refreshNow()
            let writer = try await TestConnection(port: server.port)
            #expect(try await writer.request("POST", "/pages/items/rows/item-1/select", headers: signedIn).status == 200)
            _ = try await connection.readStream(until: { events(in: $0).count == 1 })

            clock.advance(by: 1)
            site.access.refreshNow()
            // Ends (rather than timing out) only when the server closes the stream.
            _ = try await connection.readStream(until: { _ in false }, timeout: .seconds(5))
            #expect(try await writer.request("POST", "/pages/items/rows/item-2/select", headers: signedIn).status == 401)
            // A stream opened with the expired cookie is anonymous: the page is public, so it opens, but no session's.
            #expect(site.access.actor(for: Self.request(.get, "/", cookies: [SessionCookie.name: session.value(signedWith: site.access.secret)])) == nil)
        }
    }

    @Test("The credentials are re-read on their own within the refresh interval")
    func revocationIsNoticedByTheTimer() async throws {
        let store = MemoryCredentialStore()
        let token = try AccessTokens.create(name: "timed", mayWrite: true, pages: nil, in: store)
        let site = Self.site(AccessSettings(credentials: store, refreshInterval: .milliseconds(50)))
        let write = Self.request(.post, "/pages/items/rows/item-1/select", body: "{}", headers: ["Authorization": "Bearer " + token])
        #expect(await site.router.respond(to: write).status == 200)
        #expect(try store.revokeToken(named: "timed"))
        #expect(await eventually(timeout: .seconds(2)) { await site.router.respond(to: write).status == 401 })
    }

    @Test("Tokens are stored as their SHA-256 hash; names are checked")
    func tokensAreHashedAndNamed() throws {
        let store = MemoryCredentialStore()
        let token = try AccessTokens.create(name: "ci.job-1", mayWrite: true, pages: nil, in: store)
        #expect(token.hasPrefix(AccessTokens.prefix))
        #expect(token.count > 40)
        let stored = try #require(try store.tokens().first)
        #expect(stored.hash == AccessTokens.hash(token))
        #expect(stored.hash.count == 64 && stored.hash.allSatisfy(\.isHexDigit))
        #expect(stored.hash != AccessTokens.hash(AccessTokens.make()))
        // The well-known SHA-256 of "abc".
        #expect(AccessTokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(throws: DuplicateToken.self) { try AccessTokens.create(name: "ci.job-1", mayWrite: false, pages: nil, in: store) }
        for bad in ["", "with space", "a/b", String(repeating: "n", count: 65), "ünï"] {
            #expect(AccessTokens.problem(withName: bad) != nil, "\(bad)")
            #expect(throws: AccessTokens.InvalidTokenName.self) { try AccessTokens.create(name: bad, mayWrite: true, pages: nil, in: store) }
        }
    }
}
