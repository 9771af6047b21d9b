import Crypto

/// The server's signing key: 32 random bytes that sign session cookies, sign the sign-in links
/// (``SignInLink``) and derive the sessions' CSRF tokens. Kept in the ``CredentialStore`` so a restart keeps people signed in;
/// rotating it signs everyone out.
public struct SessionSecret: Sendable, Equatable {
    /// The key's bytes.
    public let bytes: [UInt8]
    // Made per use: SymmetricKey is not Sendable, and making one from 32 bytes is a copy.
    private var key: SymmetricKey { SymmetricKey(data: bytes) }

    /// The byte count of a new secret.
    public static let byteCount = 32

    /// A secret of `bytes` (as the store gives them back).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A new random secret.
    public static func random() -> SessionSecret {
        SessionSecret(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// HMAC-SHA256 of `message` under this secret, base64url.
    public func signature(of message: String) -> String {
        Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Array(message.utf8), using: key))
    }

    /// Whether `signature` (base64url) is this secret's signature of `message`, compared in constant time.
    public func isValidSignature(_ signature: some StringProtocol, of message: String) -> Bool {
        // Only the canonical spelling: base64's unused low bits would otherwise let several
        // spellings of one signature pass.
        guard let code = Base64URL.decode(signature), code.count == SHA256.byteCount, Base64URL.encode(code) == signature else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Array(message.utf8), using: key)
    }

    /// The CSRF token of the session `sessionID`: forms carry it as `_csrf`, scripts as `X-CSRF-Token`.
    public func csrfToken(forSession sessionID: String) -> String {
        signature(of: "csrf:" + sessionID)
    }

    /// Whether both are the same key.
    public static func == (left: SessionSecret, right: SessionSecret) -> Bool {
        left.bytes == right.bytes
    }
}
