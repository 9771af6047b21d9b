/// Who a request acts for: a browser signed in with the sign-in link, or a script with an access
/// token. A request without one is anonymous (its actor is nil), and by default may only read.
///
///     if let actor = access.actor(for: request), actor.mayWrite(page: "todo") { … }
public struct Actor: Hashable, Sendable {
    /// Stable for as long as the actor lasts: `session:<random id>` for a signed-in browser,
    /// `token:<name>` for a script's access token.
    public var id: String
    /// A name for people, e.g. the token's name; shown in logs.
    public var name: String
    /// Whether this actor may write at all (a read-only token may not).
    public var mayWrite: Bool
    /// The pages this actor may write; nil means every page.
    public var pages: Set<String>?

    /// Creates an actor.
    public init(id: String, name: String, mayWrite: Bool, pages: Set<String>? = nil) {
        self.id = id
        self.name = name
        self.mayWrite = mayWrite
        self.pages = pages
    }

    /// Whether this actor may write the page named `page`.
    public func mayWrite(page: String) -> Bool {
        mayWrite && (pages?.contains(page) ?? true)
    }

    /// The id prefix of signed-in browsers' actors.
    static let sessionPrefix = "session:"
    /// The id prefix of access tokens' actors.
    static let tokenPrefix = "token:"

    /// The actor of a browser session.
    static func session(_ sessionID: String) -> Actor {
        Actor(id: sessionPrefix + sessionID, name: "signed-in browser", mayWrite: true)
    }

    /// The session id, for a signed-in browser's actor; nil for a token's.
    public var sessionID: String? {
        id.hasPrefix(Self.sessionPrefix) ? String(id.dropFirst(Self.sessionPrefix.count)) : nil
    }
}
