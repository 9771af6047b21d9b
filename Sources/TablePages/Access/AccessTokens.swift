import Crypto
import Foundation

/// Access tokens for scripts (`Authorization: Bearer …`): made at random, shown once, stored only
/// as their SHA-256 hash.
///
///     let token = try AccessTokens.create(name: "backup", mayWrite: true, pages: nil, in: store)
///     print(token)   // the only time anyone sees it
public enum AccessTokens {
    /// What every token starts with, so a leaked one is recognisable (and greppable) as ours.
    public static let prefix = "tpt_"
    /// The longest token name.
    public static let maxNameLength = 64

    /// A new random token: the prefix and 32 random bytes, base64url.
    public static func make() -> String {
        prefix + Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// The token's SHA-256 hash, lowercase hex: what the store keeps and requests are looked up by.
    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Why `name` cannot name a token, or nil when it can: 1 to 64 letters, digits, `.`, `_` or `-`.
    public static func problem(withName name: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= maxNameLength,
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-_".unicodeScalars.contains($0)) }) else {
            return "A token name is 1 to \(maxNameLength) ASCII letters, digits, '.', '_' or '-'; got \u{201C}\(name)\u{201D}."
        }
        return nil
    }

    /// Makes a token named `name`, saves its hash in `store`, and returns the token (it is not
    /// kept anywhere: this is the only time it can be shown).
    public static func create(name: String, mayWrite: Bool, pages: Set<String>?, in store: any CredentialStore, now: Date = Date()) throws -> String {
        if let problem = problem(withName: name) { throw InvalidTokenName(message: problem) }
        let token = make()
        try store.add(StoredToken(name: name, hash: hash(token), mayWrite: mayWrite, pages: pages, created: now))
        return token
    }

    /// A token name that ``problem(withName:)`` refuses.
    public struct InvalidTokenName: Error, CustomStringConvertible {
        /// What is wrong with the name.
        public let message: String
        /// The message.
        public var description: String { message }
    }
}
