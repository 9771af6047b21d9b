import Escaping
import MicroHTTP

extension ErrorPage {
    /// The service's error page for browsers: the site's stylesheet, the status, the message and a
    /// way back to the index of pages.
    static let site = ErrorPage { status, message in
        let title = HTMLEscaping.escape(String(status) + " " + HTTPStatus.reasonPhrase(status))
        let page = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
            + title + "</title><link rel=\"stylesheet\" href=\"/public/table-pages.css\"></head>"
            + "<body class=\"error-page\"><main><h1>" + title + "</h1><p>"
            + HTMLEscaping.escape(message) + "</p><p><a href=\"/\">All pages</a></p></main></body></html>"
        return .html(page, status: status)
    }
}
