import Escaping

extension PageDocument {
    /// `<nav class="tp-crumbs" aria-label="Breadcrumb"><ol>…</ol></nav>`: one link per crumb, in
    /// order, the last one the document shown (`aria-current="page"`); each title in a `<bdi>`, so
    /// that a title in a right-to-left script keeps its place between the separators.
    static func breadcrumbs(_ crumbs: [(title: String, href: String)]) -> String {
        var html = "<nav class=\"tp-crumbs\" aria-label=\"Breadcrumb\"><ol>"
        for (position, crumb) in crumbs.enumerated() {
            let current = position == crumbs.count - 1 ? " aria-current=\"page\"" : ""
            html += "<li><a href=\"" + HTMLEscaping.escape(crumb.href) + "\"" + current + "><bdi>" + HTMLEscaping.escape(crumb.title) + "</bdi></a></li>"
        }
        return html + "</ol></nav>"
    }
}
