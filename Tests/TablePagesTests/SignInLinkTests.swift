import Foundation
import HostileTextSupport
import MicroHTTP
import PropertyBased
@testable import TablePages
import TablePagesDatabase
@testable import TablePagesTestSupport
import Testing

/// A sign-in link signs one browser in, once, before it expires, on whichever instance it is
/// opened; forged, altered and pre-rotation links never sign in.
@Suite("Sign-in links")
struct SignInLinkTests {
    static func token(of path: String) -> String {
        String(path.split(separator: "=", maxSplits: 1)[1])
    }

    static func open(_ token: String, on site: Site) async -> Response {
        await site.router.respond(to: AccessControlRoutesTests.request(.get, "/-/signin", json: false, query: [("token", token)]))
    }

    static func text(_ response: Response) -> String {
        String(decoding: response.bodyBytes, as: UTF8.self)
    }

    static func withCredentialsFile(_ body: (String) async throws -> Void) async throws {
        let path = NSTemporaryDirectory() + "tablepages-links-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }

    @Test("A link signs in once; its second use is refused with 403, no cookie and a page that says how to get a new one")
    func aLinkSignsInOnce() async throws {
        let site = AccessControlRoutesTests.site(AccessSettings(credentials: MemoryCredentialStore()))
        let token = Self.token(of: site.access.makeSignInPath())
        let first = await Self.open(token, on: site)
        #expect(first.status == 303 && first.headers["Set-Cookie"] != nil)
        let second = await Self.open(token, on: site)
        #expect(second.status == 403)
        #expect(second.headers["Set-Cookie"] == nil)
        #expect(second.headers["Referrer-Policy"] == "no-referrer")
        #expect(Self.text(second).contains("used already"))
        #expect(Self.text(second).contains("tablepages secret link"))
        // Another link still works: the rule is per link.
        #expect(await Self.open(Self.token(of: site.access.makeSignInPath()), on: site).status == 303)
    }

    @Test("Without a credentials store, a link also signs in once")
    func onceWithoutAStore() async {
        let site = AccessControlRoutesTests.site(AccessSettings(credentials: nil))
        await Self.expectOnce(madeOn: site, usedOn: site, then: site)
    }

    @Test("A link used on one instance is refused on another that shares the SQLite credentials file")
    func onceAcrossInstances() async throws {
        try await Self.withCredentialsFile { path in
            let one = AccessControlRoutesTests.site(AccessSettings(credentials: try SQLiteCredentialStore(path: path)))
            let other = AccessControlRoutesTests.site(AccessSettings(credentials: try SQLiteCredentialStore(path: path)))
            await Self.expectOnce(madeOn: one, usedOn: other, then: one)
            await Self.expectOnce(madeOn: other, usedOn: one, then: other)
        }
    }

    /// A link `maker` makes signs in on `first`, and is refused (403, no cookie) on `second` after.
    static func expectOnce(madeOn maker: Site, usedOn first: Site, then second: Site, sourceLocation: SourceLocation = #_sourceLocation) async {
        let token = token(of: maker.access.makeSignInPath())
        #expect(await open(token, on: first).status == 303, sourceLocation: sourceLocation)
        let again = await open(token, on: second)
        #expect(again.status == 403 && again.headers["Set-Cookie"] == nil, sourceLocation: sourceLocation)
    }

    @Test("Many instances opening one link at once: exactly one signs in")
    func exactlyOneOfARace() async throws {
        try await Self.withCredentialsFile { path in
            var sites: [Site] = []
            for _ in 0..<4 { sites.append(AccessControlRoutesTests.site(AccessSettings(credentials: try SQLiteCredentialStore(path: path)))) }
            let token = Self.token(of: sites[0].access.makeSignInPath())
            let statuses = await withTaskGroup(of: Int.self) { group in
                for site in sites + sites { group.addTask { await Self.open(token, on: site).status } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 303 }.count == 1)
            #expect(statuses.filter { $0 == 403 }.count == 7)
        }
    }

    @Test("An expired link is refused (403, saying it expired); used links are pruned from the store once expired")
    func expiredLinksAreRefusedAndPruned() async throws {
        try await Self.withCredentialsFile { path in
            let clock = ManualClock(Date())
            let store = try SQLiteCredentialStore(path: path)
            var settings = AccessSettings(credentials: store)
            settings.now = clock.now
            settings.signInLinkLifetime = .seconds(60)
            let site = AccessControlRoutesTests.site(settings)
            let used = Self.token(of: site.access.makeSignInPath())
            #expect(await Self.open(used, on: site).status == 303)
            #expect(try store.usedSignInLinkCount() == 1)
            let unused = Self.token(of: site.access.makeSignInPath())
            clock.advance(by: 61)
            let expired = await Self.open(unused, on: site)
            #expect(expired.status == 403 && expired.headers["Set-Cookie"] == nil)
            #expect(Self.text(expired).contains("expired"))
            // The next use of a link drops the records of those that expired.
            #expect(await Self.open(Self.token(of: site.access.makeSignInPath()), on: site).status == 303)
            #expect(try store.usedSignInLinkCount() == 1)
        }
    }

    @Test("A link whose nonce, expiry or signature was altered is refused, as is one from another secret")
    func forgedLinksAreRefused() async throws {
        // A burst that the wrong tokens below do not empty, so the last answer is about the token.
        let site = AccessControlRoutesTests.site(AccessSettings(credentials: MemoryCredentialStore(), signInBurst: 100))
        let token = Self.token(of: site.access.makeSignInPath())
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let flipped = { (text: String) in String(text.dropLast()) + (text.hasSuffix("A") ? "B" : "A") }
        let later = SignInLink.make(expires: Date() + 3600)
        let forged = [
            [flipped(parts[0]), parts[1], parts[2]].joined(separator: "."),
            [parts[0], String(Int(parts[1])! + 3600), parts[2]].joined(separator: "."),
            [parts[0], "0" + parts[1], parts[2]].joined(separator: "."),
            [parts[0], parts[1], flipped(parts[2])].joined(separator: "."),
            later.token(signedWith: .random()),
            SessionSecret.random().signature(of: "signin"),
            token + ".", "." + token, parts[0], "",
        ]
        for wrong in forged {
            let refused = await Self.open(wrong, on: site)
            #expect(refused.status == 403, "\(wrong)")
            #expect(refused.headers["Set-Cookie"] == nil)
        }
        #expect(await Self.open(token, on: site).status == 303)
    }

    @Test("The token parser: arbitrary text never crashes, never verifies, and the route never signs in or answers 5xx with it")
    func arbitraryTokensNeverSignIn() async {
        let secret = SessionSecret.random()
        let site = AccessControlRoutesTests.site(AccessSettings(signInBurst: 1_000_000, signInAttemptsPerSecond: 1_000_000))
        let real = Self.token(of: site.access.makeSignInPath())
        let pieces = [real, ".", "0", "9999999999", String(real.prefix(22)), "A", "-", "_", "%", "=="]
        let tokens = zip(Gen.int(in: 0...99).array(of: 0...6), HostileText.text).map { codes, text in
            codes.map { $0 < 80 ? pieces[$0 % pieces.count] : text }.joined()
        }
        await propertyCheckFailingOnThrow(count: 300, input: tokens) { token in
            #expect(SignInLink.verify(token, secret: secret) == nil)
            guard token != real else { return }
            let response = await Self.open(token, on: site)
            #expect(response.status == 403 || response.status == 401, "\(token): \(response.status)")
            #expect(response.headers["Set-Cookie"] == nil)
        }
    }
}
