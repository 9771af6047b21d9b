/// Who may do what on a ``Site``: by default anyone may read, and writing needs an ``Actor`` (a
/// browser signed in with the sign-in link, or a script's access token).
///
///     var access = AccessSettings()
///     access.credentials = try SQLiteCredentialStore(path: "tablepages-credentials.sqlite")
///     let site = Site(pages: pages, access: access)
///     print("sign in: http://127.0.0.1:8080" + site.access.signInPath)
public struct AccessSettings: Sendable {
    /// Lets anonymous clients write, for demos on a trusted network (`--anonymous-writes`).
    public var anonymousWrites: Bool
    /// The `Host` names the site answers to (see the cross-site checks); empty: the defaults.
    public var allowedHosts: [String]
    /// Origins whose JavaScript may call the site with credentials (CORS).
    public var corsOrigins: [String]
    /// Where the session secret and the access tokens are kept. Without one, the secret is made for
    /// this process only (a restart signs everyone out) and there are no tokens.
    public var credentials: (any CredentialStore)?
    /// How long a sign-in lasts (the session cookie's age limit); 30 days by default.
    public var sessionLifetime: Duration
    /// How often the credentials are re-read from the store, so that a token revoked or a secret
    /// rotated by another process takes effect; half a second by default.
    public var refreshInterval: Duration

    /// Settings where anonymous clients may read and actors may write.
    public init(
        anonymousWrites: Bool = false, allowedHosts: [String] = [], corsOrigins: [String] = [],
        credentials: (any CredentialStore)? = nil, sessionLifetime: Duration = .seconds(30 * 24 * 3600),
        refreshInterval: Duration = .milliseconds(500)
    ) {
        self.anonymousWrites = anonymousWrites
        self.allowedHosts = allowedHosts
        self.corsOrigins = corsOrigins
        self.credentials = credentials
        self.sessionLifetime = sessionLifetime
        self.refreshInterval = refreshInterval
    }
}
