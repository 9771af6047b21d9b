import Foundation

/// Where the server keeps what must outlive it: the session secret, the access tokens' hashes and
/// the sign-in links used so far.
///
/// The core has no database; `TablePagesDatabase` implements this over a SQLite file
/// (`SQLiteCredentialStore`). Calls may block on I/O: ``AccessControl`` makes them at start and
/// from a timer on a dispatch queue of its own, never on an event thread or Swift's cooperative pool.
public protocol CredentialStore: Sendable {
    /// The session secret (32 bytes), made at random and saved on first use.
    func sessionSecret() throws -> [UInt8]
    /// Replaces the session secret with a new random one and returns it: every session ends.
    func rotateSessionSecret() throws -> [UInt8]
    /// Every access token that is not revoked.
    func tokens() throws -> [StoredToken]
    /// Saves a new token; throws when a token of that name exists.
    func add(_ token: StoredToken) throws
    /// Deletes the token named `name`; false when there was none.
    func revokeToken(named name: String) throws -> Bool
    /// Records that the sign-in link with `nonce` (``SignInLink/nonce``) was used: true the first
    /// time, false when it was used before, by this process or any other sharing the store, so it
    /// must be one atomic step. Keeps the record until `expires`, and drops records that expired by `now`.
    func claimSignInNonce(_ nonce: String, expires: Date, now: Date) throws -> Bool
}

/// An access token as it is stored: never the token itself, only its SHA-256 hash.
public struct StoredToken: Hashable, Sendable {
    /// The name it was created with, unique, e.g. `backup-script`.
    public var name: String
    /// The token's SHA-256 hash, lowercase hex (see ``AccessTokens/hash(_:)``).
    public var hash: String
    /// Whether its holder may write.
    public var mayWrite: Bool
    /// The pages its holder may write; nil means every page.
    public var pages: Set<String>?
    /// When it was created.
    public var created: Date

    /// Creates a record of a token.
    public init(name: String, hash: String, mayWrite: Bool, pages: Set<String>?, created: Date) {
        self.name = name
        self.hash = hash
        self.mayWrite = mayWrite
        self.pages = pages
        self.created = created
    }

    /// The actor a request with this token acts for; its ``Actor/id`` is made from ``hash``, so
    /// a token created again under this name is another actor.
    public var actor: Actor { .token(self) }
}
