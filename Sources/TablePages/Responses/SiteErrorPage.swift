import Escaping
import MicroHTTP

extension ErrorPage {
    /// The service's error page for browsers: the site's look (its stylesheet, the viewport a phone
    /// lays it out in, the bar under the site's title), the status, the message and a way back to
    /// the index of pages. The bar names no account: an error page is made without the request.
    static func site(title siteTitle: String) -> ErrorPage {
        ErrorPage { status, message in
            let heading = String(status) + " " + HTTPStatus.reasonPhrase(status)
            let page = PageDocument.head(title: heading) + PageDocument.bar(siteTitle: siteTitle)
                + "<main class=\"tp-index tp-error\"><h1>" + HTMLEscaping.escape(heading) + "</h1><p>"
                + HTMLEscaping.escape(message) + "</p><p><a href=\"/\">All pages</a></p></main>" + PageDocument.tail
            var response = Response.html(page, status: status)
            // The site's policy, not the bare error's `default-src 'none'`: the page loads the
            // site's stylesheet, script and icon like every other.
            response.headers["Content-Security-Policy"] = PageDocument.contentSecurityPolicy
            return response
        }
    }
}
