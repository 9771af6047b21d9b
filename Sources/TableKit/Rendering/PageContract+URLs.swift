import Escaping

// Every path under a page is the page's path followed by these pieces. The renderer writes the
// pieces as they are (StaticString: no lookup per row) and the route patterns below are joined
// from the same pieces, so a link the renderer writes always has a route.
extension PageContract {
    /// The path every page's name follows: `/pages/{page}`.
    public static let pagesPath: StaticString = "/pages/"
    /// Follows the page's path, then a row id: `/pages/{page}/rows/{row}`.
    static let rowsPath: StaticString = "/rows/"
    /// Follows the page's path, then a section id: `/pages/{page}/sections/{section}`.
    static let sectionsPath: StaticString = "/sections/"
    /// Follows a row's path: selecting the row.
    static let selectPath: StaticString = "/select"
    /// Follows a row's path: moving the row.
    static let movePath: StaticString = "/move"
    /// Follows a row's path, then an action's name.
    static let actionsPath: StaticString = "/actions/"
    /// Follows a section's path: inserting a row into the section.
    static let sectionRowsPath: StaticString = "/rows"
    /// Follows the page's path: its live event stream.
    public static let eventsPath: StaticString = "/events"
    /// Follows the page's path: rows the browser is about to show.
    static let prefetchPath: StaticString = "/prefetch"
    /// Follows a path to ask for JSON whatever the `Accept` header says: `/pages/todo.json`.
    static let jsonSuffix: StaticString = ".json"

    /// The names of the path parameters in the route patterns.
    public enum Parameter {
        /// The page's name.
        public static let page = "page"
        /// A section id.
        public static let section = "section"
        /// A row id.
        public static let row = "row"
        /// A row action's name.
        public static let action = "action"
    }

    /// `GET /pages/:page`: the page.
    public static let pagePattern = "\(pagesPath):\(Parameter.page)"
    /// `GET /pages/:page/sections/:section`: one section, paged; `POST` to its rows inserts.
    public static let sectionPattern = pagePattern + "\(sectionsPath):\(Parameter.section)"
    /// `GET` (one row), `DELETE` (delete it) or a form's `POST` with ``Field/method`` `DELETE`.
    public static let rowPattern = pagePattern + "\(rowsPath):\(Parameter.row)"
    /// `GET /pages/:page/events`: live patches.
    public static let eventsPattern = pagePattern + "\(eventsPath)"
    /// `POST /pages/:page/rows/:row/select`.
    public static let selectPattern = rowPattern + "\(selectPath)"
    /// `POST /pages/:page/rows/:row/actions/:action`.
    public static let actionPattern = rowPattern + "\(actionsPath):\(Parameter.action)"
    /// `POST /pages/:page/rows/:row/move`.
    public static let movePattern = rowPattern + "\(movePath)"
    /// `POST /pages/:page/sections/:section/rows`: insert a row.
    public static let insertPattern = sectionPattern + "\(sectionRowsPath)"
    /// `POST /pages/:page/prefetch`.
    public static let prefetchPattern = pagePattern + "\(prefetchPath)"
    /// `GET /pages/:page.csv`: the variant's rows, all of them, as CSV.
    public static let csvExportPattern = pagePattern + ".csv"
    /// `GET /pages/:page.ndjson`: the variant's rows, all of them, as one JSON object per line.
    public static let ndjsonExportPattern = pagePattern + ".ndjson"
}

extension PageContract {
    /// The path of the page named `name`: `/pages/{name}`, the name tilde-encoded as Datasette
    /// encodes names (``/Escaping/TildeEncoding``), so that a page named `x.csv` is never the CSV
    /// of a page `x`, nor `x.json` the JSON of `x`; ``pageName(inPath:)`` reads it back.
    ///
    ///     PageContract.pagePath(named: "to do")   // "/pages/to+do"
    ///     PageContract.pagePath(named: "x.csv")   // "/pages/x~2Ecsv"
    public static func pagePath(named name: String) -> String {
        "\(pagesPath)" + TildeEncoding.encode(name)
    }

    /// The names a page's path segment (percent-decoded) may stand for, most likely first: the
    /// segment tilde-decoded (how ``pagePath(named:)`` writes names), then the segment itself (a
    /// link written by hand, or before names were tilde-encoded).
    public static func pageNames(inPath segment: String) -> [String] {
        guard let decoded = TildeEncoding.decode(segment), decoded != segment else { return [segment] }
        return [decoded, segment]
    }
    /// The JSON URL of a row of the page at `basePath`: `{basePath}/rows/{row}.json`, the id
    /// percent-encoded; where an insert's `Location` leads.
    ///
    ///     PageContract.rowJSONPath("todo-42", basePath: "/pages/todo")  // "/pages/todo/rows/todo-42.json"
    public static func rowJSONPath(_ row: RowID, basePath: String) -> String {
        var out = OutputBuffer(capacity: basePath.utf8.count + row.rawValue.utf8.count * 3 + 16)
        out.appendUnescaped(basePath)
        out.append(rowsPath)
        out.appendPercentEncoded(row.rawValue)
        out.append(jsonSuffix)
        return out.string
    }
}
