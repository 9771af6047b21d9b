import MicroHTTP

/// The HTML document around every page: head, stylesheet, client script, and the body fragment.
enum PageDocument {
    /// Wraps an already-escaped body fragment; `title` is escaped here.
    static func wrap(title: String, body: String) -> String {
        head(title: title) + body + tail
    }

    static func head(title: String) -> String {
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<title>" + HTMLText.escape(title) + "</title>"
            + "<link rel=\"stylesheet\" href=\"/public/table-pages.css\">"
            + "<script src=\"/public/table-pages.js\" defer></script></head><body>"
    }

    static let tail = "</body></html>"
}
