/// What a table shows above its sections, read once per render by the walker.
struct TableHeading {
    /// The page heading (``TableDataSource/titleForTable()`` or the table's title).
    var title: String?
    /// The table's version.
    var version: Int
    /// The section index.
    var index: [SectionIndexEntry]
    /// The view above the sections (``TableDataSource/headerViewForTable()``).
    var headerView: TableCell?
    /// Extra members of the JSON document (``TableDataSource/jsonPropertiesForTable()``).
    var properties: [JSONProperty]
}
