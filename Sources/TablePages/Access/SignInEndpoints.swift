import MicroHTTP
import TableKit

/// `/-/signin?token=…` (the link `tablepages serve` prints) and `/-/signout`: a browser's session
/// cookie. Both answer on the event thread: an HMAC is all they compute.
struct SignInEndpoints: Sendable {
    static let signInPath = PageContract.signInPath
    static let signOutPath = "/-/signout"

    let access: AccessControl
    /// The site's title, in the bar of the page that explains how to sign in.
    let siteTitle: String

    func register(on router: inout Router) {
        router.immediate(.get, Self.signInPath, signIn)
        // GET only asks: another site can make a browser follow a link, and must not sign it out.
        router.immediate(.get, Self.signOutPath) { _ in PageDocument.signOutConfirmation(siteTitle: siteTitle) }
        router.immediate(.post, Self.signOutPath, signOut)
    }

    /// With the right token: a new session cookie, and on to the index. Anything else: 403, no cookie.
    func signIn(_ request: Request) -> Response {
        let secret = access.secret
        // No token at all: someone followed a page's "Sign in" link; tell them where the URL is.
        guard request.query["token"] != nil else { return PageDocument.signInHelp(siteTitle: siteTitle) }
        let address = request.remoteAddress
        if case .refused(let retryAfter, let first) = access.signInLimiter.admit(address) {
            if first {
                access.logger.warning("too many wrong sign-in tokens from \(SignInLimiter.key(address)): answering 429 until its limit refills")
            }
            var response = Response.error(429, "Too many sign-in attempts from this address; try again in \(retryAfter) s.", for: request)
            response.headers["Retry-After"] = String(retryAfter)
            return response
        }
        guard let token = request.query["token"], secret.isValidSignature(token, of: "signin") else {
            access.signInLimiter.recordFailure(address)
            return .error(403, "This sign-in link is not valid: it is mistyped, or the secret was rotated. Use the link the server printed most recently.", for: request)
        }
        var response = Response.redirect(to: "/")
        response.headers["Set-Cookie"] = SessionCookie.new(now: access.settings.now()).setCookieHeader(
            signedWith: secret, lifetime: access.settings.sessionLifetime, secure: request.isSecure || access.settings.secureCookies
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
