import MicroHTTP
import TableKit

/// One page of a shared event stream, as a `page` value of `GET /-/events` names it:
/// `[lastEventID:]/pages/{page}[?query]`, the page variant's URL after the id of the last event
/// its reader has (none: live from now on).
///
/// The id goes into the value, not into `Last-Event-ID`: that header is one string for the whole
/// stream, and each page's ids are its own (ids of different pages are not comparable). A value
/// that starts with `/` has no id; otherwise the id is everything before the first `:`.
struct StreamedPage: Sendable, Equatable {
    /// The page's name (percent-decoded).
    let name: String
    /// The variant's query string as given (still percent-encoded), without the `?`.
    let query: String
    /// The variant's query, decoded.
    let queryItems: [QueryItem]
    /// The id of the last event the reader has; nil to follow the page from now on.
    let lastEventID: String?

    /// One decoded query argument.
    struct QueryItem: Sendable, Equatable {
        let name: String
        let value: String
    }

    /// The most bytes of an id: the server's ids are decimal integers, far shorter.
    static let maxIDLength = 64

    /// The id as a state a patch log may hold, or -1 (no state the server made: `reset`), as
    /// the page's own stream reads `Last-Event-ID`; nil when the reader gave none.
    var lastSeen: Int? {
        guard let lastEventID, !lastEventID.isEmpty else { return nil }
        return Int(lastEventID) ?? -1
    }

    /// The value's text: what ``parse(_:)`` reads back as this page.
    var encoded: String {
        // The segment as it came, percent-encoded: `name` is the path's segment, which the page's
        // lookup reads (a tilde-encoded name, or the name itself; PageRegistry.page(inPath:)).
        let url = "\(PageContract.pagesPath)" + PercentEncoding.encode(name) + (query.isEmpty ? "" : "?" + query)
        guard let lastEventID else { return url }
        return lastEventID + ":" + url
    }

    /// Reads one `page` value.
    /// - Throws: 400 saying what is wrong with it.
    static func parse(_ text: String) throws(HTTPError) -> StreamedPage {
        let pagesPath = "\(PageContract.pagesPath)"
        var url = Substring(text)
        var id: String?
        if !url.hasPrefix("/") {
            guard let colon = url.firstIndex(of: ":") else { throw refusal(text, "it is not a page's URL (/pages/…), nor an event id and a colon before one") }
            let idText = url[..<colon]
            guard idText.utf8.count <= maxIDLength, !idText.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7f }) else {
                throw refusal(text, "its event id is longer than \(maxIDLength) bytes or holds spaces or control characters")
            }
            id = String(idText)
            url = url[url.index(after: colon)...]
        }
        guard url.hasPrefix(pagesPath) else { throw refusal(text, "the URL after the event id must be a page's, /pages/{page}") }
        let rest = url.dropFirst(pagesPath.count)
        let question = rest.firstIndex(of: "?")
        let encodedName = rest[..<(question ?? rest.endIndex)]
        let query = question.map { rest[rest.index(after: $0)...] } ?? ""
        guard !encodedName.isEmpty, !encodedName.contains("/"), let name = PercentEncoding.decode(encodedName), !name.isEmpty else {
            throw refusal(text, "it names no page: a page's own URL is /pages/{page}, without a path after the name")
        }
        var items: [QueryItem] = []
        for argument in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = argument.firstIndex(of: "=")
            guard let key = PercentEncoding.decode(argument[..<(equals ?? argument.endIndex)], plusAsSpace: true),
                  let value = PercentEncoding.decode(equals.map { argument[argument.index(after: $0)...] } ?? "", plusAsSpace: true) else {
                throw refusal(text, "its query has a malformed percent-escape")
            }
            items.append(QueryItem(name: key, value: value))
        }
        return StreamedPage(name: name, query: String(query), queryItems: items, lastEventID: id)
    }

    private static func refusal(_ text: String, _ reason: String) -> HTTPError {
        let shown = text.count > 80 ? text.prefix(80) + "\u{2026}" : Substring(text)
        return HTTPError(400, "The page value \u{201C}\(shown)\u{201D} cannot be followed: \(reason). Give [lastEventID:]/pages/{page}[?query].")
    }
}
