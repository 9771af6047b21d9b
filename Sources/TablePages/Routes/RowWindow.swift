import MicroHTTP
import TableKit

/// Which rows of a section a page request asks for: those after a row (`after`, Datasette's
/// `_next`) or from a position (`_at`), or the first; and how many (`limit`, `_size`). Parsed once
/// per request, into its ``PageRequest``.
struct RowWindow: Sendable, Equatable {
    /// The row the rows follow; nil when not given.
    let after: RowID?
    /// Where the rows start; nil when not given.
    let position: RowPosition?
    /// Rows per section in one response; nil when not given (the page's own limit).
    let limit: Int?

    /// Whether it asks for rows after a row or from a position: a page of one section, not the page.
    var isPaged: Bool { after != nil || position != nil }

    /// The window `query` names, with at most `maxRows` rows.
    /// - Throws: 400 naming the value at fault.
    static func parse(_ query: [String: String], maxRows: Int) throws(HTTPError) -> RowWindow {
        var after: RowID?
        if let (name, text) = try aliased(PageContract.Query.after, PageContract.Query.next, in: query) {
            after = RowID(try PageEndpoints.validID(text, what: name))
        }
        let position = try RowPosition.parse(query: query)
        if position != nil, after != nil {
            throw HTTPError(400, "\(PageContract.Query.at) and \(PageContract.Query.after) (or \(PageContract.Query.next)) both say where the rows start; give one.")
        }
        var limit: Int?
        if let (name, text) = try aliased(PageContract.Query.limit, PageContract.Query.size, in: query) {
            guard let value = Int(text), (1...maxRows).contains(value) else {
                throw HTTPError(400, "\(name) must be a whole number from 1 to \(maxRows).")
            }
            limit = value
        }
        return RowWindow(after: after, position: position, limit: limit)
    }

    /// The value of `name` or of its alias, with the name it came by; both may be given only alike.
    private static func aliased(_ name: String, _ alias: String, in query: [String: String]) throws(HTTPError) -> (String, String)? {
        switch (query[name], query[alias]) {
        case (let value?, nil): return (name, value)
        case (nil, let value?): return (alias, value)
        case (let value?, let other?):
            guard value == other else { throw HTTPError(400, "\(name) and \(alias) say the same thing differently (\(value), \(other)); give one.") }
            return (name, value)
        case (nil, nil): return nil
        }
    }
}
