import Escaping
import MicroHTTP
import TableKit

/// The index of pages as JSON: `{"title":…,"pages":[{"name":…,"title":…,"summary":…,"url":…,"variants":{…},"rowCount":…}]}`;
/// `rowCount` only for a page that counted its rows (``PageRowCounts``), null when it has more than
/// it could count in time; then `links`, the ``IndexEntry``s (`title`, `summary`, `url`), when there are any.
enum PageIndexJSON {
    /// The index of `pages` (those the viewer may read), for a site named `siteTitle`, with the
    /// row counts of those in `counts`.
    static func render(_ pages: [PageDefinition], siteTitle: String, counts: [String: Int?] = [:], entries: [IndexEntry] = []) -> String {
        let pages = pages.map { page in
            let variants = page.variants.sorted { $0.key < $1.key }.map { name, values in
                quoted(name) + ":[" + values.map(quoted).joined(separator: ",") + "]"
            }
            return "{\"name\":" + quoted(page.name) + ",\"title\":" + quoted(page.title)
                + ",\"summary\":" + quoted(page.summary) + ",\"url\":" + quoted(PageContract.pagePath(named: page.name))
                + ",\"variants\":{" + variants.joined(separator: ",") + "}"
                + (counts[page.name].map { ",\"rowCount\":" + ($0.map(String.init) ?? "null") } ?? "") + "}"
        }
        let links = entries.map { "{\"title\":" + quoted($0.title) + ",\"summary\":" + quoted($0.summary) + ",\"url\":" + quoted($0.path) + "}" }
        return "{\"title\":" + quoted(siteTitle) + ",\"pages\":[" + pages.joined(separator: ",") + "]"
            + (links.isEmpty ? "" : ",\"links\":[" + links.joined(separator: ",") + "]") + "}"
    }

    private static func quoted(_ text: String) -> String {
        "\"" + JSONEscaping.escape(text) + "\""
    }
}
