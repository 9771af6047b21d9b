import TableKit

// The routes of a page's URLs, for the router: joined from the path pieces the renderer writes
// (``/TableKit/PageContract``), so a link the renderer writes always has a route. Here rather than
// in TableKit, which renders and knows no HTTP routing.
extension PageContract {
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
    /// `GET` (one row), `DELETE` (delete it) or a form's `POST` with ``/TableKit/PageContract/Field/method`` `DELETE`.
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
