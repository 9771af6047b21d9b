/// The data-source half of a table, as `UITableViewDataSource`: structure, cells, identifiers,
/// titles and editing commits.
///
/// Every requirement has a default implementation, documented with it (`TableDataSource+Defaults.swift`):
/// implement only what your table needs.
///
///     final class Fruit: CascadingBareTableDelegate {
///         override func numberOfRows(inSection section: Int) -> Int { 3 }
///     }
///
/// Implementation requirements: answers must be consistent within one render: `numberOfRows`
/// bounds every index path passed to the other methods, and `rowID(forRowAt:)` returns a
/// distinct, stable identifier for each row (it is what patches and URLs use). After changing
/// the data, report the change through the table's batch updates or `reloadData()`.
public protocol TableDataSource {
    /// The number of sections (`numberOfSections(in:)`).
    func numberOfSections() -> Int
    /// The number of rows in `section` (`tableView(_:numberOfRowsInSection:)`).
    func numberOfRows(inSection section: Int) -> Int
    /// The configured cell for a row (`tableView(_:cellForRowAt:)`).
    func cell(forRowAt indexPath: TableIndexPath) -> TableCell
    /// The stable identifier of a section: implement it, because the default, made from the
    /// index, changes when a section is inserted before it.
    func sectionID(forSection section: Int) -> SectionID
    /// The stable identifier of a row: implement it, because the default, made from the index
    /// path, changes when a row is inserted before it.
    func rowID(forRowAt indexPath: TableIndexPath) -> RowID
    /// The header title (`titleForHeaderInSection`).
    func titleForHeader(inSection section: Int) -> String?
    /// The footer title (`titleForFooterInSection`).
    func titleForFooter(inSection section: Int) -> String?
    /// The footer title a viewer shown the table's controls reads (one who may write), in place of
    /// ``titleForFooter(inSection:)``: words about actions ("select a to-do to tick it") belong
    /// here, so that a viewer who may not take them is not told of them. Nil: the same footer for all.
    func titleForFooterWithControls(inSection section: Int) -> String?
    /// Whether the row can be edited (`canEditRowAt`).
    func canEditRow(at indexPath: TableIndexPath) -> Bool
    /// The fields of the add form an insert-style row of `section` shows (see ``FormField``); the
    /// default, none, keeps the one required `title` text input. Submitted values are checked
    /// against these fields before ``commit(_:forRowAt:values:)`` sees them.
    func fieldsForInserting(inSection section: Int) -> [FormField]
    /// Commits a deletion or insertion (`commit(_:forRowAt:)`); `values` carries the fields
    /// submitted with an insertion (checked against ``fieldsForInserting(inSection:)``) and is
    /// empty for a deletion.
    ///
    /// An insertion is delivered to the section, at an index path one past its last row
    /// (`row == numberOfRows(inSection:)`): in a cascading tree, to the section's delegate, not to
    /// the row that showed the add form. That row must answer true from ``canEditRow(at:)``, or it
    /// shows no form (the table logs that once, see ``TableAdapter/onIgnoredAnswer``).
    ///
    /// The table wraps this call in a batch: update the data, then report the change through
    /// the context (`deleteRows(at:)` / `insertRows(at:)`), as UIKit expects.
    /// - Throws: whatever kept the change from being made (a failed store write); throw before
    ///   changing anything: the table then discards the batch and publishes nothing.
    func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws
    /// Whether the row can be moved (`canMoveRowAt`).
    func canMoveRow(at indexPath: TableIndexPath) -> Bool
    /// Moves a row in the data (`moveRowAt:to:`); the table records the move itself once this
    /// returns.
    /// - Throws: whatever kept the move from being made; the table then records no move.
    func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws
    /// The table's own heading, in place of the title its page gives every variant (a view
    /// controller's `title`): the name of the product a detail page shows, say. Read at every render.
    func titleForTable() -> String?
    /// A view above the table's sections (a table view's `tableHeaderView`), rendered with its
    /// cell kind like a section's header view: a database page's column headers, filters and
    /// counts. Read at every render; nil for none.
    func headerViewForTable() -> TableCell?
    /// Members the table's JSON document carries besides its own (`title`, `version`,
    /// `sectionIndex`, `headerView`, `sections`, `next`), in order: a database page's `facets`.
    /// Members named like the document's own are left out. Read at every render.
    func jsonPropertiesForTable() -> [JSONProperty]
    /// The titles of the section index (`sectionIndexTitles(for:)`).
    func sectionIndexTitles() -> [String]?
    /// The section a section-index title leads to (`sectionForSectionIndexTitle:at:`).
    func section(forSectionIndexTitle title: String, at index: Int) -> Int
    /// How many rows of `section` follow the rows the data source holds, when it holds only the
    /// first rows of its sections — a window onto data too large to hold, such as a database table
    /// of a million rows — and leaves the rest to be fetched page by page; nil when it holds the
    /// section whole.
    ///
    /// The renderer counts the rows after the window as rows still to come: a page render ends the
    /// section with a `next` link whose `data-remaining` sizes the client's placeholder, the JSON
    /// `rowCount` includes them, and a change of the count alone is published
    /// (``Changeset/Operation/updateSectionCounts(_:)``). The count may be an estimate. Rendering
    /// may ask `estimatedHeightForRow(at:)` and `heightForRow(at:)` for the index path just past
    /// the window, so answer those without indexing into the held rows. Serving the rows after
    /// the window is up to the service (TablePages asks its root's `rowPager`).
    ///
    ///     final class Recent: ListDataSource<Event> {
    ///         var total = 1_000_000
    ///         override func numberOfRowsAfterWindow(inSection section: Int) -> Int? { total - models.count }
    ///     }
    func numberOfRowsAfterWindow(inSection section: Int) -> Int?
    /// Whether the rows of `section` differ only in their ids and their cells' field values: the
    /// same cell kind and content otherwise, the same heights, selection, editing and actions.
    /// JSON output then makes the section's first row whole and writes every other row as that one
    /// with its own id and fields, which the data source writes straight from its storage
    /// (``writeFields(forRowAt:into:)``), without a cell or a row record per row: a database page
    /// of 100 rows spent a third of its time making and freeing them.
    func hasUniformRows(inSection section: Int) -> Bool
    /// Writes the fields of the cell of the row at `indexPath`, in order, as
    /// ``cell(forRowAt:)``'s ``CellContent/fields`` would write them; asked only in a section
    /// with ``hasUniformRows(inSection:)``.
    ///
    ///     func writeFields(forRowAt indexPath: TableIndexPath, into fields: inout JSONFieldWriter) {
    ///         fields.write("price", .number(prices[indexPath.row]))
    ///     }
    func writeFields(forRowAt indexPath: TableIndexPath, into fields: inout JSONFieldWriter)
}
