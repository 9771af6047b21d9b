import Escaping

// Every path under a page is the page's path followed by these pieces. The renderer writes the
// pieces as they are (StaticString: no lookup per row) and TablePages joins its route patterns
// from the same pieces (`PageContract+Routes.swift`), so a link the renderer writes always has a route.
extension PageContract {
    /// The path every page's name follows: `/pages/{page}`.
    public static let pagesPath: StaticString = "/pages/"
    /// Follows the page's path, then a row id: `/pages/{page}/rows/{row}`.
    package static let rowsPath: StaticString = "/rows/"
    /// Follows the page's path, then a section id: `/pages/{page}/sections/{section}`.
    package static let sectionsPath: StaticString = "/sections/"
    /// Follows a row's path: selecting the row.
    package static let selectPath: StaticString = "/select"
    /// Follows a row's path: moving the row.
    package static let movePath: StaticString = "/move"
    /// Follows a row's path, then an action's name.
    package static let actionsPath: StaticString = "/actions/"
    /// Follows a section's path: inserting a row into the section.
    package static let sectionRowsPath: StaticString = "/rows"
    /// Follows the page's path: its live event stream.
    public static let eventsPath: StaticString = "/events"
    /// Follows the page's path: rows the browser is about to show.
    package static let prefetchPath: StaticString = "/prefetch"
    /// Follows a path to ask for JSON whatever the `Accept` header says: `/pages/todo.json`.
    static let jsonSuffix: StaticString = ".json"

}

extension PageContract {
    /// The path of the page named `name`: `/pages/{name}`, the name tilde-encoded as Datasette
    /// encodes names (``/Escaping/TildeEncoding``), so that a page named `x.csv` is never the CSV
    /// of a page `x`, nor `x.json` the JSON of `x`; ``firstPage(inPath:_:)`` reads it back.
    ///
    ///     PageContract.pagePath(named: "to do")   // "/pages/to+do"
    ///     PageContract.pagePath(named: "x.csv")   // "/pages/x~2Ecsv"
    public static func pagePath(named name: String) -> String {
        "\(pagesPath)" + TildeEncoding.encode(name)
    }

    /// The first thing `find` finds by the names a page's path segment (percent-decoded) may
    /// stand for, most likely first: the segment tilde-decoded (how ``pagePath(named:)`` writes
    /// names), then the segment itself (a link written by hand, or before names were tilde-encoded).
    ///
    ///     PageContract.firstPage(inPath: "x~2Ecsv") { pages[$0] }   // pages["x.csv"], else pages["x~2Ecsv"]
    public static func firstPage<Page>(inPath segment: String, _ find: (String) -> Page?) -> Page? {
        // No array of names: this runs for every page request.
        if let decoded = TildeEncoding.decode(segment), decoded != segment, let page = find(decoded) { return page }
        return find(segment)
    }

    /// The JSON URL of a row of the page at `basePath`: `{basePath}/rows/{row}.json`, the id
    /// percent-encoded; where an insert's `Location` leads.
    ///
    ///     PageContract.rowJSONPath("todo-42", basePath: "/pages/todo")  // "/pages/todo/rows/todo-42.json"
    public static func rowJSONPath(_ row: RowID, basePath: String) -> String {
        rowPath(row, basePath: basePath) + String(describing: jsonSuffix)
    }

    /// The URL of a row's own page: `{basePath}/rows/{row}`, the id percent-encoded.
    ///
    ///     PageContract.rowPath("todo-42", basePath: "/pages/todo")  // "/pages/todo/rows/todo-42"
    public static func rowPath(_ row: RowID, basePath: String) -> String {
        var out = OutputBuffer(capacity: basePath.utf8.count + row.rawValue.utf8.count * 3 + 16)
        out.appendUnescaped(basePath)
        out.append(rowsPath)
        out.appendPercentEncoded(row.rawValue)
        return out.string
    }
}
