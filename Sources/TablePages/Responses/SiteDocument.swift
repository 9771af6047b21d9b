import MicroHTTP

/// An HTML document in the site's look, for pages another module serves beside the registered
/// ones (TablePagesDatabase's SQL page): the site's head (stylesheet, script, icon, viewport), its
/// bar under the site's title, `body`, and the security headers every page carries.
///
///     let response = SiteDocument.response(title: "SQL", siteTitle: site.title, body: "<main>…</main>")
public enum SiteDocument {
    /// The document titled `title`, with `body` (HTML, already escaped) after the bar.
    public static func response(title: String, siteTitle: String, body: String, status: Int = 200) -> Response {
        let html = PageDocument.head(title: title) + PageDocument.bar(siteTitle: siteTitle) + body + PageDocument.tail
        return PageDocument.document(Array(html.utf8), status: status)
    }

    /// A trail of links from the site's index to where a page is, the last one the page itself
    /// (`aria-current`), as the table pages write theirs.
    public static func breadcrumbs(_ crumbs: [(title: String, href: String)]) -> String {
        PageDocument.breadcrumbs(crumbs)
    }
}
