import TableKit
import TablePages

/// The root delegate of a database page: sections of rows read by a ``DatabaseTableReader``.
///
/// As a page's live root (a ``/TablePages/PageSource``) it holds the first rows of each section (the
/// window), re-reads them when the database changes (`readFromSource()`), counts the rest as rows
/// after the window (`numberOfRowsAfterWindow(inSection:)`) and serves every later page by a keyset
/// query (`rowPager`) in a table of its own, which its host renders with the same cells; a row's own
/// URL reads the row again with its values whole (`root(ofRow:)`). Rows show but are not
/// selectable or editable: the page reads the database and never writes it.
final class DatabaseTableSource: RereadingSource {
    private let reader: DatabaseTableReader
    private var sections: [DatabaseSection]
    /// The value counts of the query's `_facet` columns, read with the window; the header shows them.
    private(set) var facets: [DatabaseFacet]
    /// The facets the header suggests (``DatabaseTableReader/suggestedFacets(rowCount:columns:size:budget:)``),
    /// found once, when the page's live table is made, and kept: a suggestion is a hint, and
    /// looking again at every change would cost each reload its budget.
    let suggestedFacets: [DatabaseFacet.Suggestion]
    /// What the table holds, from the configuration file, for the header
    /// (``DatabaseTableHeader/tableDescription``).
    let tableDescription: String?
    /// The path of the SQL page, when it is on: the header links the page's query there
    /// (``DatabaseTableReader/editableQuery()``).
    let sqlPage: String?
    /// The one row the source shows and re-reads, for a row's own page; nil for a page of rows.
    private let followedRow: RowID?

    /// A source over sections already read; `followedRow` when they hold that row alone.
    init(
        reader: DatabaseTableReader, sections: [DatabaseSection], facets: [DatabaseFacet] = [],
        suggestedFacets: [DatabaseFacet.Suggestion] = [], tableDescription: String? = nil, sqlPage: String? = nil,
        followedRow: RowID? = nil
    ) {
        self.reader = reader
        self.followedRow = followedRow
        self.sections = sections
        self.facets = facets
        self.suggestedFacets = suggestedFacets
        self.tableDescription = tableDescription
        self.sqlPage = sqlPage
    }

    /// A page's live root: its window and facets read, and its suggested facets found;
    /// `tableDescription` shows under its title, and the header links to `sqlPage` when given.
    static func reading(_ reader: DatabaseTableReader, tableDescription: String? = nil, sqlPage: String? = nil) throws -> DatabaseTableSource {
        let sections = try reader.window()
        let facets = try reader.facets()
        let rowCount = sections.reduce(0) { $0 + ($1.total ?? $1.rows.count + $1.rowsAfter) }
        return DatabaseTableSource(
            reader: reader, sections: sections, facets: facets, suggestedFacets: reader.suggestedFacets(rowCount: rowCount),
            tableDescription: tableDescription, sqlPage: sqlPage
        )
    }

    /// The live root of a row's own page: the row, whole, and nothing else, re-read alone at each
    /// change; once the row is deleted it holds no row, so its page is told so by a `delete` op.
    static func following(_ row: RowID, reader: DatabaseTableReader) throws -> DatabaseTableSource {
        DatabaseTableSource(reader: reader, sections: try sections(showing: row, reader: reader), followedRow: row)
    }

    /// The section of `row` alone, read whole; empty when there is no such row.
    private static func sections(showing row: RowID, reader: DatabaseTableReader) throws -> [DatabaseSection] {
        var rows: [DatabaseSection.Row] = []
        do {
            rows = [try reader.record(row)]
        } catch TableError.unknownRow {
            // Deleted (or never there): the page of the row says so; nothing is wrong.
        }
        return [DatabaseSection(id: detailSection, headerTitle: nil, rows: rows, rowsAfter: 0, total: rows.count)]
    }

    /// One estimate for every row: a record is one line of columns (long values wrap).
    private static let estimatedRowHeight = TableHeight.points(44)

    // MARK: Page abilities

    func readFromSource() throws -> Int? {
        if let followedRow {
            sections = try Self.sections(showing: followedRow, reader: reader)
            return nil
        }
        // The counts are read again with the rows, never kept: a row written past the window
        // changes only them, which the table then publishes as a `section-next` op.
        sections = try reader.window()
        facets = try reader.facets()
        return nil
    }

    /// Pages are read with the sections' row counts of the last window read (to estimate the rows
    /// after a page) and nothing else, so they are read on any lane, beside the host's work.
    var rowPager: (any RowPager)? {
        DatabaseTablePager(reader: reader, totals: sections.map { ($0.id, $0.total) })
    }

    func root(ofRow row: RowID) throws -> (any TableRoot)? {
        // A row's own page's live table holds the row whole already.
        guard followedRow == nil else { return nil }
        return DatabaseTableSource(reader: reader, sections: [DatabaseSection(
            id: Self.detailSection, headerTitle: nil, rows: [try reader.record(row)], rowsAfter: 0, total: 1
        )])
    }

    /// The section of the table that shows one row alone.
    private static let detailSection: SectionID = "row"

    func exporter(as format: ExportFormat) throws -> (any RowExporter)? {
        DatabaseTableExporter(reader: reader, format: format)
    }

    func numberOfRowsAfterWindow(inSection section: Int) -> Int? {
        sections.indices.contains(section) ? sections[section].rowsAfter : 0
    }

    // MARK: Data source and delegate

    func jsonPropertiesForTable() -> [JSONProperty] {
        facets.isEmpty ? [] : [DatabaseFacet.jsonProperty(facets)]
    }


    func numberOfSections() -> Int { sections.count }
    func numberOfRows(inSection section: Int) -> Int { sections[section].rows.count }
    func sectionID(forSection section: Int) -> SectionID { sections[section].id }
    func rowID(forRowAt indexPath: TableIndexPath) -> RowID { sections[indexPath.section].rows[indexPath.row].id }
    func cell(forRowAt indexPath: TableIndexPath) -> TableCell { reader.cell(of: sections[indexPath.section].rows[indexPath.row]) }
    /// Every row is a record of the same columns, with one height estimate and no selection or
    /// editing: rows that hold their values write their fields from them.
    func hasUniformRows(inSection section: Int) -> Bool { sections[section].rows.allSatisfy(\.holdsValues) }
    func writeFields(forRowAt indexPath: TableIndexPath, into fields: inout JSONFieldWriter) {
        reader.writeFields(of: sections[indexPath.section].rows[indexPath.row], into: &fields)
    }
    func titleForHeader(inSection section: Int) -> String? { sections[section].headerTitle }
    func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? { Self.estimatedRowHeight }

    /// The row count, column headers, filter and search forms, facets and export links
    /// (``DatabaseTableHeader``), from the held sections' totals.
    func headerViewForTable() -> TableCell? {
        // A row's own page has its own heading (`PageDocument.row`).
        guard followedRow == nil else { return nil }
        let rowCount = sections.reduce(0) { $0 + ($1.total ?? $1.rows.count + $1.rowsAfter) }
        let editableSQL = sqlPage.map { path in
            let query = reader.editableQuery()
            return path + "?" + DatasetteAPI.formEncoded([(name: "sql", value: query.sql)] + query.parameters)
        }
        return DatabaseTableHeader(
            schema: reader.schema, query: reader.query, rowCount: rowCount, facets: facets, suggestedFacets: suggestedFacets, tableDescription: tableDescription,
            editableSQL: editableSQL
        ).cell
    }
    func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { false }
}
