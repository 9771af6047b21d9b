import MicroHTTP
import TableKit

/// `/-/signin?token=…` (a link `tablepages serve` logs, or `tablepages secret link` prints) and
/// `/-/signout`: a browser's session cookie. A link signs in once: its use is recorded in the
/// credentials store, which blocks, so that step runs on the credentials' queue; everything else
/// (the HMAC, the expiry, the limiter) answers on the event thread.
struct SignInEndpoints: Sendable {
    static let signInPath = PageContract.signInPath
    static let signOutPath = PageContract.signOutPath

    let access: AccessControl
    /// The site's title, in the bar of the page that explains how to sign in.
    let siteTitle: String

    /// What the refusals of a link that is good no more tell its holder to do.
    static let newLinkAdvice = "Ask whoever runs the server for a new link: the command \u{201C}tablepages secret link\u{201D} prints one (and the server logs one when it starts)."

    func register(on router: inout Router) {
        router.on(.get, Self.signInPath, answering: signIn)
        // GET only asks: another site can make a browser follow a link, and must not sign it out.
        router.immediate(.get, Self.signOutPath) { _ in PageDocument.signOutConfirmation(siteTitle: siteTitle) }
        router.immediate(.post, Self.signOutPath, signOut)
    }

    /// A link signed with the secret and not expired is claimed later (``claim(_:for:)``); anything
    /// else is answered here: 403 saying why, no cookie.
    func signIn(_ request: Request) -> HTTPAnswer {
        let secret = access.secret
        // No token at all: someone followed a page's "Sign in" link; tell them where the URL is.
        guard let token = request.query["token"] else { return .now(PageDocument.signInHelp(siteTitle: siteTitle)) }
        let address = request.remoteAddress
        if case .refused(let retryAfter, let first) = access.signInLimiter.admit(address) {
            if first {
                access.logger.warning("too many wrong sign-in tokens from \(SignInLimiter.key(address)): answering 429 until its limit refills")
            }
            var response = Self.refusal(429, "Too many sign-in attempts from this address; try again in \(retryAfter) s.", for: request)
            response.headers["Retry-After"] = String(retryAfter)
            return .now(response)
        }
        guard let link = SignInLink.verify(token, secret: secret) else {
            access.signInLimiter.recordFailure(address)
            return .now(Self.refusal(403, "This sign-in link is not valid: it is mistyped, or the secret was rotated since it was made. \(Self.newLinkAdvice)", for: request))
        }
        let now = access.settings.now()
        guard now < link.expiryDate else {
            access.logger.info("an expired sign-in link was refused (client \(SignInLimiter.key(address)))")
            return .now(Self.refusal(403, "This sign-in link expired at \(link.expiryDate.ISO8601Format()): links sign in within a short time of being made. \(Self.newLinkAdvice)", for: request))
        }
        let signed = SignedLink(link: link, secret: secret)
        return .later { await claim(signed, for: request) }
    }

    /// A link that passed the first step, and the secret that signed it.
    struct SignedLink: Sendable {
        let link: SignInLink
        let secret: SessionSecret
    }

    /// Records the link's use (on the credentials' queue: the store blocks, and this only awaits
    /// it): the first time, a new session cookie and on to the index; after that, 403 saying so.
    func claim(_ signed: SignedLink, for request: Request) async -> Response {
        let claimed = await withCheckedContinuation { continuation in
            access.credentials.claim(signed.link) { continuation.resume(returning: $0) }
        }
        let client = SignInLimiter.key(request.remoteAddress)
        switch claimed {
        case .success(true):
            access.logger.notice("a browser signed in with a sign-in link (client \(client))")
            return Self.signedIn(secret: signed.secret, access: access, secure: request.isSecure)
        case .success(false):
            access.logger.warning("a sign-in link was used again and refused (client \(client)): each link signs in once; a copy of it may have leaked, e.g. into a proxy's log")
            return Self.refusal(403, "This sign-in link was used already: each link signs in one browser, once. If that was not you, someone else has it. \(Self.newLinkAdvice)", for: request)
        case .failure(let error):
            access.logger.error("cannot record a sign-in link's use in the credentials store, so it was refused: \(error)")
            return Self.refusal(503, "The server cannot check this sign-in link right now (its credentials store did not answer); try the link again in a moment.", for: request)
        }
    }

    /// An error page about a link, which keeps the link's token out of the `Referer` of whatever
    /// the page links to, and out of caches.
    private static func refusal(_ status: Int, _ message: String, for request: Request) -> Response {
        var response = Response.error(status, message, for: request)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response
    }

    /// The answer to a good link: a new session's cookie and a redirect to the index.
    private static func signedIn(secret: SessionSecret, access: AccessControl, secure: Bool) -> Response {
        var response = Response.redirect(to: "/")
        response.headers["Set-Cookie"] = SessionCookie.new(now: access.settings.now()).setCookieHeader(
            signedWith: secret, lifetime: access.settings.sessionLifetime, secure: secure || access.settings.secureCookies
        )
        response.headers["Cache-Control"] = "no-store"
        // The link's token must not travel on in a Referer header.
        response.headers["Referrer-Policy"] = "no-referrer"
        return response
    }

    /// Clears the session cookie and goes to the index (the cookie is stateless: forgetting it ends
    /// it); a post that another site's page sent is refused with 403, as every write is.
    func signOut(_ request: Request) -> Response {
        do {
            try access.checkCrossSite(request)
        } catch {
            return .error(error, for: request)
        }
        var response = Response.redirect(to: "/")
        response.headers["Set-Cookie"] = SessionCookie.clearingHeader
        return response
    }
}
