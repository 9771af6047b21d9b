import Foundation
import Logging
import MicroHTTP

/// Decides who a request acts for and whether it may write. Built by ``Site`` from its
/// ``AccessSettings``; cheap and non-blocking (it runs on event threads): the secret and the
/// tokens are kept in memory by `Credentials`, refreshed from the store on a queue of its own.
public struct AccessControl: Sendable {
    /// The settings it was made with.
    public let settings: AccessSettings
    let credentials: Credentials
    let logger: Logger
    /// Slows down guessing the sign-in token (see ``SignInEndpoints``).
    let signInLimiter: SignInLimiter
    /// Refuses writes that browsers send for other sites (see ``checkCrossSite(_:)``).
    let crossSite: CrossSiteCheck

    /// Access control under `settings`; reads the credentials store once now.
    public init(settings: AccessSettings, logger: Logger = Logger(label: "TablePages")) {
        self.settings = settings
        self.logger = logger
        self.credentials = Credentials(
            store: settings.credentials, refreshInterval: settings.refreshInterval, logger: logger, now: settings.now
        )
        self.crossSite = CrossSiteCheck(corsOrigins: CORSPolicy(settings.corsOrigins))
        self.signInLimiter = SignInLimiter(
            burst: settings.signInBurst, perSecond: settings.signInAttemptsPerSecond,
            byteLimit: settings.signInLimiterSize, now: settings.now
        )
    }

    /// The actor of `request`: the token's of an `Authorization: Bearer` header, else the
    /// session cookie's; nil for an anonymous request (or a token or cookie that is not valid).
    public func actor(for request: Request) -> Actor? {
        if let token = Self.bearerToken(request) {
            return credentials.actor(forToken: token)
        }
        guard let cookie = request.cookies[SessionCookie.name],
              let session = SessionCookie.verify(cookie, secret: credentials.secret, lifetime: settings.sessionLifetime, now: settings.now())
        else { return nil }
        return .session(session.sessionID, expires: session.expiry(lifetime: settings.sessionLifetime))
    }

    /// The actor of a write to `page`, or nil for an anonymous write where
    /// ``AccessSettings/anonymousWrites`` allows it. Throws 401 when the request has no actor
    /// (or a token that is not valid), 403 when its actor may not write `page`.
    public func authorizeWrite(_ request: Request, page: PageDefinition) throws(HTTPError) -> Actor? {
        try checkCrossSite(request)
        let actor = actor(for: request)
        if Self.bearerToken(request) != nil, actor == nil {
            throw HTTPError(401, "The access token is not valid: it was revoked, or mistyped.", headers: Self.challenge)
        }
        guard let actor else {
            // Signing in would not help with a read-only page: 403 says so.
            if page.access.isReadOnly, let refusal = writeRefusal(for: nil, page: page) { throw refusal }
            if settings.anonymousWrites {
                // A page's rules may still keep anonymous writers out (a private page).
                if let refusal = writeRefusal(for: nil, page: page) { throw refusal }
                return nil
            }
            throw HTTPError(
                401,
                "Sign in to change anything: open the sign-in link the server logged when it started, or send an access token (Authorization: Bearer …).",
                headers: Self.challenge
            )
        }
        // The actor's own permissions, then the page's rules (``PageAccess``), which only narrow them.
        guard actor.mayWrite(page: page.name) else {
            throw HTTPError(403, "\(actor.name) may not change the page \u{201C}\(page.name)\u{201D}.")
        }
        // A browser's cookie goes along with any request to this site; the token proves the
        // page that sent it was this site's. A bearer token is never sent by a browser on its own.
        if let token = csrfToken(for: actor) {
            try CSRFCheck.check(request, expected: token)
        }
        if let refusal = writeRefusal(for: actor, page: page) { throw refusal }
        return actor
    }

    /// Throws 403 when `request` is a browser's write on behalf of another site: its `Origin` is
    /// neither this server's nor a ``AccessSettings/corsOrigins`` origin, or, without `Origin`,
    /// its `Sec-Fetch-Site` is not `same-origin` or `none`. Requests with neither header (scripts)
    /// pass. ``authorizeWrite(_:page:)`` calls it first, also for anonymous writes.
    public func checkCrossSite(_ request: Request) throws(HTTPError) {
        try crossSite.check(request)
    }

    /// A new sign-in link's path, `/-/signin?token=…`, that signs one browser in once, within
    /// ``AccessSettings/signInLinkLifetime``. Put the site's address in front and show it to whoever
    /// runs the server; each call makes another link.
    public func makeSignInPath() -> String {
        SignInLink.make(expires: settings.now() + Double(settings.signInLinkLifetime.components.seconds)).path(signedWith: credentials.secret)
    }

    /// Logs the sign-in link for the site at `baseURL` (e.g. `http://127.0.0.1:8080`): how whoever
    /// runs the server signs a browser in. At `notice` unless `level` says otherwise.
    ///
    ///     try server.start()
    ///     site.access.logSignInLink(at: "http://127.0.0.1:\(server.port)")
    public func logSignInLink(at baseURL: String, level: Logger.Level = .notice) {
        let writes = settings.anonymousWrites ? "anyone may write (anonymous writes are on); " : ""
        let seconds = settings.signInLinkLifetime.components.seconds
        let lifetime = seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
        logger.log(level: level, "\(writes)to sign in and make changes (the link signs in one browser, once, within \(lifetime)), open: \(baseURL)\(makeSignInPath())")
    }

    /// The CSRF token of `actor`'s session (what forms carry as `_csrf`); nil for a token's actor.
    public func csrfToken(for actor: Actor) -> String? {
        actor.sessionID.map { credentials.secret.csrfToken(forSession: $0) }
    }

    /// The session secret now (it changes when rotated by another process).
    public var secret: SessionSecret { credentials.secret }

    /// Closes `stream` when `actor`'s token is revoked or, for a session, the secret is rotated or
    /// the cookie expires.
    public func closeWhenRevoked(_ stream: EventStream, actor: Actor?) {
        guard let actor else { return }
        credentials.watch(stream, for: actor)
    }

    /// The wait before routing a request whose access token is not known yet (see
    /// ``Site``'s middleware): the store is re-read first, so a token works at once.
    func recheckUnknownToken(_ request: Request) -> (@Sendable (@escaping @Sendable () -> Void) -> Void)? {
        Self.bearerToken(request).flatMap { credentials.recheck(forToken: $0) }
    }

    /// Re-reads the credentials store now, rather than at the next refresh (tests; the timer does it otherwise).
    public func refreshNow() {
        credentials.refresh()
    }

    static let challenge = ["WWW-Authenticate": #"Bearer realm="tablepages""#]

    /// The token of an `Authorization: Bearer …` header, if the request has one.
    static func bearerToken(_ request: Request) -> String? {
        guard let field = request.headers["Authorization"] else { return nil }
        let parts = field.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}
