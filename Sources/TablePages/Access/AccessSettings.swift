import Foundation

/// Who may do what on a ``Site``: by default anyone may read, and writing needs an ``Actor`` (a
/// browser signed in with the sign-in link, or a script's access token).
///
///     var access = AccessSettings()
///     access.credentials = try SQLiteCredentialStore(path: "tablepages-credentials.sqlite")
///     let site = Site(pages: pages, access: access)
///     print("sign in: http://127.0.0.1:8080" + site.access.makeSignInPath())
public struct AccessSettings: Sendable {
    /// Lets anonymous clients write, for demos on a trusted network (`--anonymous-writes`).
    public var anonymousWrites: Bool
    /// The `Host` names the site answers to (see the cross-site checks); empty: the defaults.
    public var allowedHosts: [String]
    /// Origins whose JavaScript may call the site with credentials (CORS).
    public var corsOrigins: [String]
    /// Where the session secret, the used sign-in links and the access tokens are kept. By default a
    /// ``FileCredentialStore`` in ``FileCredentialStore/standardDirectory(environment:program:)``
    /// (`~/.local/state/PROGRAM` on Linux), so a restart keeps everyone signed in; it keeps no tokens.
    /// Without one (nil, or no home folder) the secret is made for this process only: a restart
    /// signs everyone out, and the site logs a warning saying so when it starts.
    public var credentials: (any CredentialStore)?
    /// How long a sign-in lasts (the session cookie's age limit); 30 days by default.
    public var sessionLifetime: Duration
    /// How long a sign-in link signs in (each link signs in once); 15 minutes by default
    /// (``SignInLink/defaultLifetime``, `--sign-in-link-lifetime`).
    public var signInLinkLifetime: Duration = SignInLink.defaultLifetime
    /// How often the credentials are re-read from the store, so that a token revoked or a secret
    /// rotated by another process takes effect; half a second by default.
    public var refreshInterval: Duration
    /// Wrong sign-in tokens (`/-/signin?token=…`) one client address may send at once before it
    /// gets 429; 10 by default.
    public var signInBurst: Int
    /// Wrong sign-in tokens one client address may send per second after its burst; 1 by default.
    public var signInAttemptsPerSecond: Double
    /// Bytes of client addresses the sign-in limiter keeps (about 128 each); past it, new addresses
    /// share one limit; 1 MiB by default.
    public var signInLimiterSize: Int
    /// Marks the session cookie `Secure` on every sign-in (`--secure-cookies`); without it, only
    /// sign-ins that a trusted proxy says came over TLS get it (`Request.isSecure`).
    public var secureCookies = false
    /// The wall clock sessions are issued and expire by, and sign-in attempts are limited by; tests set their own.
    var now: @Sendable () -> Date = Date.init

    /// The default ``signInLimiterSize``: 1 MiB, about 8,000 addresses.
    public static let defaultSignInLimiterSize = 1 << 20

    /// Settings where anonymous clients may read and actors may write.
    public init(
        anonymousWrites: Bool = false, allowedHosts: [String] = [], corsOrigins: [String] = [],
        credentials: (any CredentialStore)? = FileCredentialStore.standard, sessionLifetime: Duration = .seconds(30 * 24 * 3600),
        refreshInterval: Duration = .milliseconds(500), signInBurst: Int = 10, signInAttemptsPerSecond: Double = 1,
        signInLimiterSize: Int = defaultSignInLimiterSize
    ) {
        self.signInBurst = signInBurst
        self.signInAttemptsPerSecond = signInAttemptsPerSecond
        self.signInLimiterSize = signInLimiterSize
        self.anonymousWrites = anonymousWrites
        self.allowedHosts = allowedHosts
        self.corsOrigins = corsOrigins
        self.credentials = credentials
        self.sessionLifetime = sessionLifetime
        self.refreshInterval = refreshInterval
    }
}
