import Foundation

/// The signed session cookie: `v1.<session id, base64url>.<issued, Unix seconds>.<HMAC-SHA256>`.
/// Stateless: the server keeps no session table, so a restart (with the same secret) keeps the
/// session, and only rotating the secret, or the cookie's age, ends it.
struct SessionCookie: Equatable, Sendable {
    /// The cookie's name.
    static let name = "tablepages_session"
    /// Longer values are refused before any decoding: a real one is about 110 bytes.
    static let maxLength = 512

    /// The random id of the session.
    var sessionID: String
    /// When it was issued, in whole seconds since 1970.
    var issued: Int

    /// A new session with a random id, issued `now`.
    static func new(now: Date = Date()) -> SessionCookie {
        var generator = SystemRandomNumberGenerator()
        let id = Base64URL.encode((0..<18).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return SessionCookie(sessionID: id, issued: Int(now.timeIntervalSince1970))
    }

    /// The cookie's value, signed with `secret`.
    func value(signedWith secret: SessionSecret) -> String {
        let payload = "v1." + Base64URL.encode(Array(sessionID.utf8)) + "." + String(issued)
        return payload + "." + secret.signature(of: payload)
    }

    /// The session `value` holds, when `secret` signed it and it is younger than `lifetime`;
    /// nil for anything else (tampered, expired, malformed, from another secret).
    static func verify(_ value: String, secret: SessionSecret, lifetime: Duration, now: Date = Date()) -> SessionCookie? {
        guard value.utf8.count <= maxLength, let dot = value.lastIndex(of: ".") else { return nil }
        let payload = String(value[..<dot])
        guard secret.isValidSignature(value[value.index(after: dot)...], of: payload) else { return nil }
        let parts = payload.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let idBytes = Base64URL.decode(parts[1]),
              let id = String(validating: idBytes, as: UTF8.self), let issued = Int(parts[2]) else { return nil }
        let session = SessionCookie(sessionID: id, issued: issued)
        // A minute of clock skew forward; never older than the lifetime.
        guard now.timeIntervalSince1970 - Double(issued) > -60, now < session.expiry(lifetime: lifetime) else { return nil }
        return session
    }

    /// When a session issued at ``issued`` stops being valid, for sessions that last `lifetime`.
    func expiry(lifetime: Duration) -> Date {
        Date(timeIntervalSince1970: Double(issued) + Double(lifetime.components.seconds))
    }

    /// `Set-Cookie` for this session: HttpOnly (scripts cannot read it), SameSite=Lax (other
    /// sites' forms do not carry it), for the whole site, until `lifetime` ends; `Secure` (sent
    /// over TLS only) when `secure`.
    func setCookieHeader(signedWith secret: SessionSecret, lifetime: Duration, secure: Bool = false) -> String {
        Self.name + "=" + value(signedWith: secret) + "; Path=/; HttpOnly; SameSite=Lax; Max-Age=" + String(lifetime.components.seconds) + (secure ? "; Secure" : "")
    }

    /// `Set-Cookie` that removes the session cookie.
    static let clearingHeader = name + "=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"
}
