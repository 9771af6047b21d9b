import Escaping
import MicroHTTP
import TableKit

extension PageDocument {
    /// What the bar says about the viewer's sign-in; part of a page's ``View``, so of the render
    /// cache's key.
    enum Account: Hashable, Sendable {
        /// A browser signed in with the sign-in link: "Signed in" and a button that signs it out,
        /// so a person sees that the link worked and need not know `/-/signout`.
        case signedIn
        /// An anonymous viewer whom signing in would let write: a link that says how.
        case signInOffered
        /// Nothing to say: a script's token (it neither signs in nor out), or a viewer for whom
        /// signing in changes nothing (the page is read-only, or anonymous clients write already).
        case none

        /// The account part of the bar for `actor` on a page: `mayWrite` whether they may write
        /// it now, `readOnly` whether nobody ever may (``PageAccess/isReadOnly``).
        static func of(_ actor: Actor?, mayWrite: Bool, readOnly: Bool) -> Account {
            if actor?.sessionID != nil { return .signedIn }
            return actor == nil && !mayWrite && !readOnly ? .signInOffered : .none
        }
    }

    /// The bar at the top of every document: the site's title linking home, then `controls` (a
    /// page's layouts and live status), then the viewer's ``Account``.
    static func bar(siteTitle: String, controls: String = "", account: Account = .none) -> String {
        var html = "<header class=\"tp-bar\"><a class=\"tp-home\" href=\"/\">" + HTMLEscaping.escape(siteTitle) + "</a>" + controls
        switch account {
        case .signedIn:
            html += "<span class=\"tp-account\">Signed in</span><form class=\"tp-signout\" method=\"post\" action=\""
                + PageContract.signOutPath + "\"><button type=\"submit\">Sign out</button></form>"
        case .signInOffered:
            html += "<a class=\"tp-signin\" href=\"" + PageContract.signInPath
                + "\" title=\"Open the sign-in URL the server printed when it started\">Sign in to make changes</a>"
        case .none:
            break
        }
        return html + "</header>"
    }
}
