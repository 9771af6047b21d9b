import Escaping
import MicroHTTP
import TableKit

/// The HTML documents around rendered tables: head, navigation, variant switcher, live indicator.
///
/// Every document is sent with a Content-Security-Policy that allows scripts and styles from this
/// origin only, so hostile text that slipped into a page could still not run.
enum PageDocument {
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; "
        + "img-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        + "form-action 'self'; frame-ancestors 'none'"

    /// How one viewer sees a page, besides its data: what the bar says of their sign-in
    /// (``Account``) and whether the rows carry action controls (only for viewers who may write).
    /// Part of the render cache's key, so a cached page is shared by every viewer who sees it the
    /// same way.
    struct View: Hashable, Sendable {
        let account: Account
        let controls: Bool

        /// Everything shown and nothing to sign in for; JSON, which is the same for every viewer, is cached under it.
        static let jsonView = View(account: .none, controls: true)
    }

    /// A page: the table fragment inside the chrome, wired to its event stream; the bar links
    /// home under the site's title, and says whether the viewer is signed in or how to sign in.
    static func page(definition: PageDefinition, variant: PageVariant, fragment: [UInt8], siteTitle: String, view: View = .jsonView) -> Response {
        let events = variant.basePath + "\(PageContract.eventsPath)" + (variant.query.isEmpty ? "" : "?" + variant.query)
        var html = head(title: definition.title)
        // The first thing Tab reaches, so a keyboard need not pass the bar on every page.
        html += "<a class=\"tp-skip\" href=\"#table\">Skip to the table</a>"
        html += bar(
            siteTitle: siteTitle,
            controls: variantSwitcher(definition: definition, variant: variant)
                + "<span class=\"tp-live\" data-state=\"offline\" role=\"status\" aria-live=\"polite\">offline</span>",
            account: view.account
        )
        if definition.showsBreadcrumbs {
            html += breadcrumbs([(siteTitle, "/"), (definition.title, variant.url)])
        }
        if view.controls, let forms = definition.editForms {
            html += "<p class=\"tp-edit-links\"><a class=\"tp-add-row\" href=\"" + HTMLEscaping.escape(forms.insertPath) + "\">Add a row</a></p>"
        }
        html += "<div class=\"tp-page\" data-page=\"" + HTMLEscaping.escape(definition.name) + "\" data-events=\""
        html += HTMLEscaping.escape(events) + "\" data-url=\"" + HTMLEscaping.escape(variant.url) + "\">"
        var bytes = Array(html.utf8)
        bytes += fragment
        bytes += Array(("</div>" + tail).utf8)
        return document(bytes)
    }

    /// A row on its own URL (`GET /pages/{page}/rows/{row}`): the row's element, under a link
    /// back to the page's variant, a heading naming the row, and a link to the same row as JSON
    /// (in the variant, so its parameters, e.g. `_labels=on`, still hold). With `liveVersion` (the
    /// state shown of `variant`, the page's variant of this one row:
    /// ``PageDefinition/rowVariantParameter``) it follows that variant's stream as a page does;
    /// without, it is not live.
    static func row(
        _ row: RowID, definition: PageDefinition, variant: PageVariant, fragment: [UInt8], siteTitle: String, account: Account, controls: Bool = false,
        liveVersion: Int? = nil
    ) -> Response {
        // The links go to the page's variant the row belongs to, not to the variant of the row alone.
        let rowVariant = variant
        let variant = definition.rowVariantParameter.map { variant.removing($0) } ?? variant
        var html = head(title: definition.title + ": " + row.rawValue)
        let indicator = "<span class=\"tp-live\" data-state=\"offline\" role=\"status\" aria-live=\"polite\">offline</span>"
        html += bar(siteTitle: siteTitle, controls: liveVersion == nil ? "" : indicator, account: account)
        let inVariant = variant.query.isEmpty ? "" : "?" + variant.query
        let rowPath = PageContract.rowPath(row, basePath: variant.basePath)
        if let liveVersion {
            let events = rowVariant.basePath + "\(PageContract.eventsPath)" + (rowVariant.query.isEmpty ? "" : "?" + rowVariant.query)
            html += "<div class=\"tp-page\" data-page=\"" + HTMLEscaping.escape(definition.name) + "\" data-events=\"" + HTMLEscaping.escape(events)
            html += "\" data-url=\"" + HTMLEscaping.escape(rowVariant.url) + "\" data-document=\"" + HTMLEscaping.escape(rowPath + inVariant)
            html += "\" data-row=\"" + HTMLEscaping.escape(row.rawValue) + "\">"
            html += "<main class=\"tk-table tk-row-page\" data-version=\"\(liveVersion)\">"
        } else {
            html += "<main class=\"tk-table tk-row-page\">"
        }
        if definition.showsBreadcrumbs {
            html += breadcrumbs([(siteTitle, "/"), (definition.title, variant.url), (row.rawValue, rowPath + inVariant)])
        } else {
            html += "<p class=\"tk-back\"><a href=\"" + HTMLEscaping.escape(variant.url) + "\">\u{2190} " + HTMLEscaping.escape(definition.title) + "</a></p>"
        }
        // Each name isolated: a title ending in a right-to-left script would otherwise take the
        // row's id into its run.
        html += "<h1 class=\"tk-title\"><bdi>" + HTMLEscaping.escape(definition.title) + "</bdi>: <bdi>" + HTMLEscaping.escape(row.rawValue) + "</bdi></h1>"
        let json = PageContract.rowJSONPath(row, basePath: variant.basePath) + inVariant
        html += "<p class=\"tk-row-formats\">This row as <a href=\"" + HTMLEscaping.escape(json) + "\" type=\"application/json\">JSON</a>"
        if controls, let forms = definition.editForms {
            let edit = rowPath + forms.rowSuffix
            html += " \u{B7} <a class=\"tp-edit-row\" href=\"" + HTMLEscaping.escape(edit) + "\">Edit this row</a>"
        }
        html += "</p>"
        html += "<div class=\"tk-rows\" role=\"table\">"
        var bytes = Array(html.utf8)
        bytes += fragment
        bytes += Array(("</div></main>" + (liveVersion == nil ? "" : "</div>") + tail).utf8)
        return document(bytes)
    }

    /// The index of `pages`, titled with the site's title, with the row counts of those in
    /// `counts` (``PageRowCounts``), then `entries`; pages hidden from the viewer are left out by the caller.
    static func index(pages: [PageDefinition], siteTitle: String, account: Account, counts: [String: Int?] = [:], entries: [IndexEntry] = []) -> Response {
        var html = head(title: siteTitle)
        html += bar(siteTitle: siteTitle, account: account)
        html += "<main class=\"tp-index\"><h1>" + HTMLEscaping.escape(siteTitle) + "</h1>"
        if pages.isEmpty {
            html += "<p>No pages are registered.</p>"
        } else {
            html += "<ul class=\"tp-pages\">"
            for page in pages {
                html += "<li><a href=\"" + HTMLEscaping.escape(PageContract.pagePath(named: page.name)) + "\">"
                html += "<strong>" + HTMLEscaping.escape(page.title) + "</strong>"
                if !page.summary.isEmpty { html += "<span>" + HTMLEscaping.escape(page.summary) + "</span>" }
                if let count = counts[page.name] { html += "<span class=\"tp-count\">" + rowCountText(count) + "</span>" }
                html += "</a></li>"
            }
            html += "</ul>"
        }
        if !entries.isEmpty {
            html += "<ul class=\"tp-pages tp-entries\">"
            for entry in entries {
                html += "<li><a href=\"" + HTMLEscaping.escape(entry.path) + "\"><strong>" + HTMLEscaping.escape(entry.title) + "</strong>"
                if !entry.summary.isEmpty { html += "<span>" + HTMLEscaping.escape(entry.summary) + "</span>" }
                html += "</a></li>"
            }
            html += "</ul>"
            for (position, entry) in entries.enumerated() {
                guard let field = entry.queryField else { continue }
                html += queryBox(entry, field: field, id: "tp-query-\(position)")
            }
        }
        html += "</main>" + tail
        return document(Array(html.utf8))
    }

    /// A form that sends what is typed in its box to `entry`'s path as `field` (the SQL page's
    /// `sql`): a query run from the index.
    private static func queryBox(_ entry: IndexEntry, field: String, id: String) -> String {
        "<form class=\"tp-query-box\" method=\"get\" action=\"" + HTMLEscaping.escape(entry.path) + "\"><label for=\"" + id + "\">"
            + HTMLEscaping.escape(entry.title) + "</label><textarea id=\"" + id + "\" name=\"" + HTMLEscaping.escape(field)
            + "\" rows=\"3\" required spellcheck=\"false\" autocapitalize=\"off\"></textarea><button type=\"submit\">Run "
            + HTMLEscaping.escape(entry.title) + "</button></form>"
    }

    /// "1 row", "12,345 rows", or "many rows" for nil.
    private static func rowCountText(_ count: Int?) -> String {
        guard let count else { return "many rows" }
        var digits = String(count)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + (count == 1 ? " row" : " rows")
    }

    /// `GET /-/signin` without a token: how to sign in, with status 401.
    static func signInHelp(siteTitle: String) -> Response {
        var html = head(title: "Sign in")
        html += bar(siteTitle: siteTitle)
        html += "<main class=\"tp-index tp-signin-help\"><h1>Sign in</h1>"
        html += "<p>This address needs the secret of a sign-in URL. When the server starts, it prints one, "
        html += "<code>http://HOST:PORT" + PageContract.signInPath + "?token=…</code>, on its standard error "
        html += "(for a container, in its log: <code>docker logs CONTAINER</code>). Open that URL in this browser "
        html += "to sign in; pages then show their controls. Each link signs in one browser, once, within "
        html += "a short time (15 minutes by default); <code>tablepages secret link</code>, run where the server runs, "
        html += "prints another.</p>"
        html += "<p>Without signing in you can still read every public page: <a href=\"/\">the index</a>.</p></main>" + tail
        return document(Array(html.utf8), status: 401)
    }

    /// `GET /-/signout`: a button that posts the sign-out, so a link from another site cannot sign
    /// anyone out.
    static func signOutConfirmation(siteTitle: String) -> Response {
        var html = head(title: "Sign out")
        html += bar(siteTitle: siteTitle)
        html += "<main class=\"tp-index\"><h1>Sign out</h1>"
        html += "<form method=\"post\" action=\"" + PageContract.signOutPath + "\"><button type=\"submit\">Sign out of this browser</button></form>"
        html += "<p><a href=\"/\">Back to the index</a></p></main>" + tail
        return document(Array(html.utf8))
    }

    /// Any HTML document, with the security headers every page carries.
    static func document(_ bytes: [UInt8], status: Int = 200) -> Response {
        var response = Response.html(bytes, status: status)
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-cache"
        return response
    }

    /// How every document begins; a viewer's CSRF token goes right after it (see ``withCSRFToken(_:_:)``).
    static let opening = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"

    /// `document` (a page's bytes, shared by every viewer and cached without any token) with
    /// `<meta name="csrf-token" content="…">` for one viewer's session, which `table-pages.js`
    /// sends along with every write.
    static func withCSRFToken(_ document: [UInt8], _ token: String) -> [UInt8] {
        let opening = Self.opening.utf8
        guard document.starts(with: opening) else { return document }
        let meta = "<meta name=\"" + PageContract.csrfMetaName + "\" content=\"" + HTMLEscaping.escape(token) + "\">"
        var bytes: [UInt8] = []
        bytes.reserveCapacity(document.count + meta.utf8.count)
        bytes += document[..<opening.count]
        bytes += meta.utf8
        bytes += document[opening.count...]
        return bytes
    }

    static func head(title: String) -> String {
        opening
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<title>" + HTMLEscaping.escape(title) + "</title>"
            + "<link rel=\"icon\" href=\"/public/favicon.svg\" type=\"image/svg+xml\">"
            + "<link rel=\"stylesheet\" href=\"/public/table-pages.css\">"
            + "<script src=\"/public/table-pages.js\" defer></script></head><body>"
    }

    static let tail = "</body></html>"

    /// Links to the page's other variants, e.g. "list · sections".
    private static func variantSwitcher(definition: PageDefinition, variant: PageVariant) -> String {
        guard !definition.variants.isEmpty else { return "" }
        var html = "<nav class=\"tp-variants\" aria-label=\"Layout\">"
        for (parameter, values) in definition.variants.sorted(by: { $0.key < $1.key }) {
            for value in values {
                var parameters = variant.parameters
                parameters[parameter] = value
                let other = PageVariant(page: variant.page, parameters: parameters, defaults: variant.defaults, viewer: variant.viewer)
                let current = other == variant ? " aria-current=\"page\"" : ""
                html += "<a href=\"" + HTMLEscaping.escape(other.url) + "\"" + current + ">" + HTMLEscaping.escape(value) + "</a>"
            }
        }
        return html + "</nav>"
    }
}
