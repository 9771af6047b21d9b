import Escaping
import MicroHTTP
import TableKit

/// The index of pages as JSON: `{"pages":[{"name":…,"title":…,"summary":…,"url":…,"variants":{…}}]}`.
enum PageIndexJSON {
    static func render(_ registry: PageRegistry) -> String {
        let pages = registry.pages.map { page in
            let variants = page.variants.sorted { $0.key < $1.key }.map { name, values in
                quoted(name) + ":[" + values.map(quoted).joined(separator: ",") + "]"
            }
            return "{\"name\":" + quoted(page.name) + ",\"title\":" + quoted(page.title)
                + ",\"summary\":" + quoted(page.summary) + ",\"url\":" + quoted(PageContract.pagePath(named: page.name))
                + ",\"variants\":{" + variants.joined(separator: ",") + "}}"
        }
        return "{\"pages\":[" + pages.joined(separator: ",") + "]}"
    }

    private static func quoted(_ text: String) -> String {
        "\"" + JSONEscaping.escape(text) + "\""
    }
}
