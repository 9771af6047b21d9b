import Foundation
import TableKit

/// One sign-in link's token, `NONCE.EXPIRES.SIGNATURE`: a random nonce (16 bytes, base64url), the
/// link's expiry (Unix seconds) and the HMAC-SHA256 of `signin:NONCE.EXPIRES` under the session
/// secret. The signature makes links unforgeable; the nonce, recorded in the ``CredentialStore``
/// when the link is used, makes each link sign in once; the expiry bounds how long the store keeps
/// that record. Rotating the secret invalidates every link not used yet.
///
///     let link = SignInLink.make(expires: Date() + 900)
///     print("http://127.0.0.1:8080" + link.path(signedWith: secret))
public struct SignInLink: Sendable, Hashable {
    /// The random part, what the store records when the link is used.
    public let nonce: String
    /// When the link stops signing in, in whole seconds since 1970.
    public let expires: Int

    /// How long a link made by the server or `tablepages secret link` signs in: 15 minutes by default.
    public static let defaultLifetime: Duration = .seconds(15 * 60)
    /// The longest lifetime a link may be given: the default session's, 30 days.
    public static let maxLifetime: Duration = .seconds(30 * 24 * 3600)
    /// Longer tokens are refused before any decoding: a real one is about 80 bytes.
    static let maxTokenLength = 160
    private static let nonceByteCount = 16

    /// A link with a new random nonce that expires at `expires`.
    public static func make(expires: Date) -> SignInLink {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<nonceByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return SignInLink(nonce: Base64URL.encode(bytes), expires: Int(expires.timeIntervalSince1970.rounded(.up)))
    }

    /// The link's token, signed with `secret`: what `/-/signin?token=` carries.
    public func token(signedWith secret: SessionSecret) -> String {
        let payload = nonce + "." + String(expires)
        return payload + "." + secret.signature(of: Self.signedText(payload))
    }

    /// The link's path, `/-/signin?token=…`; put the site's address in front.
    public func path(signedWith secret: SessionSecret) -> String {
        PageContract.signInPath + "?token=" + token(signedWith: secret)
    }

    /// When the link stops signing in.
    public var expiryDate: Date { Date(timeIntervalSince1970: Double(expires)) }

    /// The link `token` names when `secret` signed it (expired or not: the caller compares
    /// ``expires`` with its clock); nil for anything else, whatever the text.
    public static func verify(_ token: String, secret: SessionSecret) -> SignInLink? {
        guard token.utf8.count <= maxTokenLength else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let nonceBytes = Base64URL.decode(parts[0]), nonceBytes.count == nonceByteCount,
              Base64URL.encode(nonceBytes) == parts[0],
              (1...12).contains(parts[1].utf8.count), parts[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let expires = Int(parts[1]),
              secret.isValidSignature(parts[2], of: signedText(parts[0] + "." + parts[1]))
        else { return nil }
        return SignInLink(nonce: String(parts[0]), expires: expires)
    }

    /// What the signature signs: a prefix of its own, so no other signature of this secret (a
    /// cookie's, a CSRF token) is ever a link's.
    private static func signedText(_ payload: some StringProtocol) -> String {
        "signin:" + payload
    }
}
