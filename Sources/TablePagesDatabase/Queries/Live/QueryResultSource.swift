import TableKit
import TablePages
import TableStore

/// The live root of a canned query's page: the query's rows with the parameters of the page's
/// variant, re-run when a change touches a table it reads (``readFromSource()``, asked by its
/// ``TableChangeRouter/Watch``); the page then publishes only the rows that differ, by
/// ``QueryRowIdentity``. Rows show but are not selectable: the page only reads. The whole result
/// is the window (at most the runner's row limit), so nothing pages.
final class QueryResultSource: RereadingSource {
    private let runner: any QueryRunner
    /// The query's place among the live queries; nil for a row's own root, which is not re-run.
    private let watch: TableChangeRouter.Watch?
    private let query: CannedQuery
    private let parameters: [(name: String, value: String)]
    /// The query's form with this variant's parameters, and its link's words: where to change them
    /// (the canned query's page, or the SQL page).
    private let form: (url: String, title: String)
    private var result: QueryResult
    private var ids: [RowID]

    /// A source that runs `query` when its host first reads it (``readsVersionedSnapshots``),
    /// after the host follows `watch`'s feed: a change committed during that first run re-runs it.
    init(runner: any QueryRunner, query: CannedQuery, parameters: [(name: String, value: String)], form: (url: String, title: String), watch: TableChangeRouter.Watch) {
        self.runner = runner
        self.watch = watch
        self.form = form
        self.query = query
        self.parameters = parameters
        result = QueryResult(columns: [], rows: [], truncated: false)
        ids = []
    }

    /// A source of one row of `source`, for the row's own URL.
    private init(row index: Int, of source: QueryResultSource) {
        runner = source.runner
        watch = nil
        form = source.form
        query = source.query
        parameters = source.parameters
        result = QueryResult(columns: source.result.columns, rows: [source.result.rows[index]], truncated: false)
        ids = [source.ids[index]]
    }

    /// The row's own URL shows the row as the last run read it.
    func root(ofRow row: RowID) throws -> (any TableRoot)? {
        ids.firstIndex(of: row).map { QueryResultSource(row: $0, of: self) }
    }

    func observeChanges(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard let watch else { return {} }
        return watch.feed.observe(observer)
    }

    /// True so that the host follows the watch's feed before the first run; a query's result has no
    /// version (each state gets one of the host's own).
    var readsVersionedSnapshots: Bool { true }

    func readFromSource() throws -> Int? {
        result = try runner.run(query.sql, parameters: Dictionary(parameters, uniquingKeysWith: { first, _ in first }))
        ids = QueryRowIdentity.ids(of: result.rows)
        // Learned on every run: a view redefined since may read other tables now.
        watch?.reads(result.tables)
        return nil
    }

    func numberOfSections() -> Int { 1 }
    func numberOfRows(inSection section: Int) -> Int { result.rows.count }
    func sectionID(forSection section: Int) -> SectionID { "rows" }
    func rowID(forRowAt indexPath: TableIndexPath) -> RowID { ids[indexPath.row] }
    func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        DatabaseRecordCell.cell(columns: result.columns, values: result.rows[indexPath.row])
    }
    func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { false }

    func headerViewForTable() -> TableCell? {
        let columns = result.columns.indices.map { (name: result.columns[$0], numeric: result.isNumeric(column: $0)) }
        return QueryResultHeader.cell(
            query: query, parameters: parameters, columns: columns, rowCount: result.rows.count, truncated: result.truncated,
            formURL: form.url, formTitle: form.title
        )
    }
}
