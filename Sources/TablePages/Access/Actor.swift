import Foundation

/// Who a request acts for: a browser signed in with the sign-in link, or a script with an access
/// token. A request without one is anonymous (its actor is nil), and by default may only read.
///
///     if let actor = access.actor(for: request), actor.mayWrite(page: "todo") { … }
public struct Actor: Hashable, Sendable {
    /// Unique to this actor and never given to another: `session:<random id>` for a signed-in
    /// browser, `token:<name>:<fingerprint>` for a script's access token, where the fingerprint
    /// is the first 16 hex digits of the token's SHA-256 hash. A token revoked and created again
    /// under its old name is a new actor: it neither inherits the old one's per-viewer data nor
    /// its open event streams. Key anything kept per actor by it; match rules on ``tokenName``.
    public var id: String
    /// A name for people, e.g. the token's name; shown in messages.
    public var name: String
    /// Whether this actor may write at all (a read-only token may not).
    public var mayWrite: Bool
    /// The pages this actor may write; nil means every page.
    public var pages: Set<String>?
    /// When this actor's credential ends by itself: a session cookie's expiry; nil for a token,
    /// which lasts until it is revoked. Its open event streams are closed then.
    public var expires: Date?

    /// Creates an actor.
    public init(id: String, name: String, mayWrite: Bool, pages: Set<String>? = nil, expires: Date? = nil) {
        self.id = id
        self.name = name
        self.mayWrite = mayWrite
        self.pages = pages
        self.expires = expires
    }

    /// Whether this actor may write the page named `page`.
    public func mayWrite(page: String) -> Bool {
        mayWrite && (pages?.contains(page) ?? true)
    }

    /// The id prefix of signed-in browsers' actors.
    static let sessionPrefix = "session:"
    /// The id prefix of access tokens' actors.
    static let tokenPrefix = "token:"
    /// Hex digits of a token's hash in its actor's id: 64 bits, so that two tokens ever made
    /// share them with negligible chance.
    static let fingerprintLength = 16

    /// The actor of a browser session whose cookie stops being valid at `expires`.
    static func session(_ sessionID: String, expires: Date?) -> Actor {
        Actor(id: sessionPrefix + sessionID, name: "signed-in browser", mayWrite: true, expires: expires)
    }

    /// The actor of the token stored as `token`.
    static func token(_ token: StoredToken) -> Actor {
        Actor(
            id: tokenPrefix + token.name + ":" + token.hash.prefix(fingerprintLength),
            name: token.name, mayWrite: token.mayWrite, pages: token.pages
        )
    }

    /// The session id, for a signed-in browser's actor; nil for a token's.
    public var sessionID: String? {
        id.hasPrefix(Self.sessionPrefix) ? String(id.dropFirst(Self.sessionPrefix.count)) : nil
    }

    /// The name the token was created with, for a token's actor (what per-page rules match, e.g.
    /// `$0?.tokenName == "editor"`); nil for a signed-in browser's.
    public var tokenName: String? {
        id.hasPrefix(Self.tokenPrefix) ? name : nil
    }
}
