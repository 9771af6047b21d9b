import Foundation
import HostileTextSupport
import PropertyBased
@testable import TablePages
import Testing

@Suite("Session cookies")
struct SessionCookieTests {
    static let lifetime = Duration.seconds(3600)

    @Test("Any session id (of up to 280 bytes, the cookie's length limit) survives signing and verifying")
    func anySessionIDRoundTrips() async {
        let secret = SessionSecret.random()
        await propertyCheckFailingOnThrow(input: HostileText.text, Gen.int(in: 0...2_000_000_000)) { id, issued in
            // Cut by bytes: a cut scalar becomes U+FFFD, any text all the same.
            let cookie = SessionCookie(sessionID: String(decoding: Array(id.utf8.prefix(280)), as: UTF8.self), issued: issued)
            let now = Date(timeIntervalSince1970: Double(issued) + 10)
            #expect(SessionCookie.verify(cookie.value(signedWith: secret), secret: secret, lifetime: Self.lifetime, now: now) == cookie)
        }
    }

    @Test("A cookie with any one character changed, or cut short, is refused")
    func tamperedCookiesAreRefused() async {
        let secret = SessionSecret.random()
        let cookie = SessionCookie.new()
        let value = Array(cookie.value(signedWith: secret).utf8)
        let alphabet = Array("ABCXYZabcxyz0189-_.=/+ %".utf8)
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...(value.count - 1)), Gen.element(of: alphabet), Gen.int(in: 0...(value.count - 1))) { position, replacement, cut in
            var tampered = value
            tampered[position] = replacement ?? UInt8(ascii: "A")
            if tampered != value {
                #expect(SessionCookie.verify(String(decoding: tampered, as: UTF8.self), secret: secret, lifetime: Self.lifetime) == nil)
            }
            #expect(SessionCookie.verify(String(decoding: value[..<cut], as: UTF8.self), secret: secret, lifetime: Self.lifetime) == nil)
        }
        #expect(SessionCookie.verify(String(decoding: value, as: UTF8.self), secret: secret, lifetime: Self.lifetime) == cookie)
    }

    @Test("Another secret's, an expired, a future and an oversized cookie are refused")
    func foreignExpiredAndOversizedCookiesAreRefused() {
        let secret = SessionSecret.random()
        let now = Date()
        let cookie = SessionCookie.new(now: now)
        #expect(SessionCookie.verify(cookie.value(signedWith: .random()), secret: secret, lifetime: Self.lifetime, now: now) == nil)
        #expect(SessionCookie.verify(cookie.value(signedWith: secret), secret: secret, lifetime: Self.lifetime, now: now + 3601) == nil)
        #expect(SessionCookie.verify(cookie.value(signedWith: secret), secret: secret, lifetime: Self.lifetime, now: now - 3600) == nil)
        let long = SessionCookie(sessionID: String(repeating: "a", count: 600), issued: cookie.issued)
        #expect(SessionCookie.verify(long.value(signedWith: secret), secret: secret, lifetime: Self.lifetime, now: now) == nil)
        #expect(SessionCookie.verify(cookie.value(signedWith: secret), secret: secret, lifetime: Self.lifetime, now: now) == cookie)
    }

    @Test("Sign-in links are signed by the secret and fail under another; CSRF tokens derive from the secret")
    func derivedTokensFollowTheSecret() {
        let secret = SessionSecret.random()
        let link = SignInLink.make(expires: Date() + 60)
        #expect(SignInLink.verify(link.token(signedWith: secret), secret: SessionSecret(bytes: secret.bytes)) == link)
        #expect(SignInLink.verify(link.token(signedWith: secret), secret: .random()) == nil)
        #expect(SignInLink.make(expires: Date() + 60).nonce != link.nonce)
        #expect(secret.csrfToken(forSession: "a") != secret.csrfToken(forSession: "b"))
        #expect(secret.csrfToken(forSession: "a") == secret.signature(of: "csrf:a"))
    }
}
