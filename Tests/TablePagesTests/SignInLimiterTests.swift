import Foundation
import MicroHTTP
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

/// Wrong sign-in tokens are limited per client address: a burst, then a few a second, then 429
/// with `Retry-After`; the right token works again once the limit refills.
@Suite("Sign-in attempt limits")
struct SignInLimiterTests {
    static func signIn(_ token: String, from address: String) -> Request {
        Request(
            method: .get, path: "/-/signin", pathSegments: ["-", "signin"], queryItems: [(name: "token", value: token)],
            headers: ["Host": "127.0.0.1"], remoteAddress: address
        )
    }

    @Test("A burst of wrong tokens gets 429 with Retry-After, for the right token too, until the limit refills")
    func aBurstOfWrongTokensIsLimited() async throws {
        let clock = ManualClock()
        // A store of its own: links claimed at the clock's instants (2027) would otherwise prune the
        // records of real-time links from the default store's file, which other tests share.
        var settings = AccessSettings(credentials: MemoryCredentialStore(), signInBurst: 3, signInAttemptsPerSecond: 1)
        settings.now = clock.now
        let site = Site(pages: TestPages.registry(), access: settings)
        // Each link signs in once: a fresh one for each sign-in below.
        let right = { String(site.access.makeSignInPath().split(separator: "=", maxSplits: 1)[1]) }
        let attacker = "192.0.2.7"
        for _ in 0..<3 {
            #expect(await site.router.respond(to: Self.signIn("wrong", from: attacker)).status == 403)
        }
        let limited = await site.router.respond(to: Self.signIn("wrong", from: attacker))
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] == "1")
        // Refused before the token is looked at: a 429 tells nothing about it.
        let rightButLimited = await site.router.respond(to: Self.signIn(right(), from: attacker))
        #expect(rightButLimited.status == 429 && rightButLimited.headers["Set-Cookie"] == nil)
        // Another address has its own limit.
        #expect(await site.router.respond(to: Self.signIn(right(), from: "198.51.100.1")).status == 303)

        clock.advance(by: 1)
        let signedIn = await site.router.respond(to: Self.signIn(right(), from: attacker))
        #expect(signedIn.status == 303)
        #expect(signedIn.headers["Set-Cookie"]?.hasPrefix(SessionCookie.name + "=") == true)
        // The right token took nothing; one more wrong one empties the bucket again.
        #expect(await site.router.respond(to: Self.signIn("wrong", from: attacker)).status == 403)
        #expect(await site.router.respond(to: Self.signIn("wrong", from: attacker)).status == 429)
    }

    @Test("Refills at its rate up to the burst; the first refusal of a run is the one marked for the log")
    func refillsAtItsRate() {
        let clock = ManualClock()
        let limiter = SignInLimiter(burst: 2, perSecond: 0.5, byteLimit: 1 << 20, now: clock.now)
        for _ in 0..<2 {
            #expect(limiter.admit("192.0.2.1") == .admitted)
            limiter.recordFailure("192.0.2.1")
        }
        #expect(limiter.admit("192.0.2.1") == .refused(retryAfter: 2, first: true))
        #expect(limiter.admit("192.0.2.1") == .refused(retryAfter: 2, first: false))
        clock.advance(by: 1)
        #expect(limiter.admit("192.0.2.1") == .refused(retryAfter: 1, first: false))
        clock.advance(by: 1)
        #expect(limiter.admit("192.0.2.1") == .admitted)
        // Long quiet: back to the burst, not beyond it.
        clock.advance(by: 3600)
        for _ in 0..<2 { limiter.recordFailure("192.0.2.1") }
        #expect(limiter.admit("192.0.2.1") != .admitted)
    }

    @Test("The table of addresses stays within its byte limit; full buckets make room, and the rest share one")
    func theTableIsBounded() {
        let clock = ManualClock()
        let limiter = SignInLimiter(burst: 1, perSecond: 1, byteLimit: 2 * SignInLimiter.bytesPerAddress, now: clock.now)
        #expect(limiter.capacity == 2)
        limiter.recordFailure("192.0.2.1")
        limiter.recordFailure("192.0.2.2")
        // The table is full of empty buckets: new addresses share the overflow bucket.
        limiter.recordFailure("192.0.2.3")
        #expect(limiter.count == 2)
        #expect(limiter.admit("192.0.2.4") != .admitted)
        #expect(limiter.admit("192.0.2.1") != .admitted)
        // Once the buckets are full again they make room for new addresses.
        clock.advance(by: 2)
        #expect(limiter.admit("192.0.2.5") == .admitted)
        #expect(limiter.count <= 2)
        for index in 0..<1_000 { limiter.recordFailure("10.0.\(index / 256).\(index % 256)") }
        #expect(limiter.count <= 2)
    }

    @Test("IPv6 clients are limited by their /64; IPv4 ones, also mapped into IPv6, by their address")
    func addressKeys() {
        #expect(SignInLimiter.key("2001:db8:1:2:3:4:5:6") == SignInLimiter.key("2001:db8:1:2::9"))
        #expect(SignInLimiter.key("2001:db8:1:2::9") == "2001:db8:1:2::/64")
        #expect(SignInLimiter.key("2001:db8:1:3::9") != SignInLimiter.key("2001:db8:1:2::9"))
        #expect(SignInLimiter.key("::ffff:192.0.2.7") == "::ffff:192.0.2.7")
        #expect(SignInLimiter.key("::ffff:192.0.2.7") != SignInLimiter.key("::ffff:192.0.2.8"))
        #expect(SignInLimiter.key("192.0.2.7") == "192.0.2.7")
        #expect(SignInLimiter.key(nil) == "unknown")
    }
}
