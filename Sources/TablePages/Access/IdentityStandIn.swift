import MicroHTTP

// STAND-IN for helper "identity"'s types (issue 11), so the per-page rules build before that branch
// lands. Delete this file when merging identity's `Actor`, `AccessSettings` and `AccessControl`;
// `AccessControl+Pages.swift` and `PageAccess.swift` only use the shapes the brief fixes.

/// Someone a request acts for: a signed-in browser session or a script's token.
public struct Actor: Hashable, Sendable {
    /// Stable: `session:<random>` or `token:<name>`.
    public let id: String
    /// A name for people and logs.
    public let name: String
    /// Whether the actor may write at all.
    public let mayWrite: Bool
    /// The pages the actor may act on; nil for every page.
    public let pages: Set<String>?

    /// Creates an actor.
    public init(id: String, name: String, mayWrite: Bool = true, pages: Set<String>? = nil) {
        self.id = id
        self.name = name
        self.mayWrite = mayWrite
        self.pages = pages
    }
}

/// Who may do what on a ``Site``.
public struct AccessSettings: Sendable {
    /// Whether anonymous clients may write.
    public var anonymousWrites: Bool
    /// Stand-in only: bearer tokens and the actors they stand for.
    public var tokens: [String: Actor]

    /// Creates settings.
    public init(anonymousWrites: Bool = false, tokens: [String: Actor] = [:]) {
        self.anonymousWrites = anonymousWrites
        self.tokens = tokens
    }
}

/// Decides who a request acts for and whether it may write.
struct AccessControl: Sendable {
    let settings: AccessSettings

    var anonymousWrites: Bool { settings.anonymousWrites }

    func actor(for request: Request) -> Actor? {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else { return nil }
        return settings.tokens[String(header.dropFirst("Bearer ".count))]
    }

    func authorizeWrite(_ request: Request, page: PageDefinition) throws(HTTPError) -> Actor? {
        let actor = actor(for: request)
        if let refusal = writeRefusal(for: actor, page: page) { throw refusal }
        return actor
    }
}
