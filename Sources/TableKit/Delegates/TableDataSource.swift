/// The data-source half of a table, as `UITableViewDataSource`: structure, cells, identifiers,
/// titles and editing commits.
///
/// Every requirement has a default (see `TableDataSource+Defaults.swift`), following
/// CascadingTableDelegate's documented table: 1 section, 0 rows, a blank cell, nil titles,
/// nothing editable or movable.
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
    /// The number of sections (`numberOfSections(in:)`). Default 1.
    func numberOfSections() -> Int
    /// The number of rows in `section` (`tableView(_:numberOfRowsInSection:)`). Default 0.
    func numberOfRows(inSection section: Int) -> Int
    /// The configured cell for a row (`tableView(_:cellForRowAt:)`). Default ``TableCell/blank``.
    func cell(forRowAt indexPath: TableIndexPath) -> TableCell
    /// The stable identifier of a section. Default `"section-{index}"`, which is not stable
    /// across inserts: override it.
    func sectionID(forSection section: Int) -> SectionID
    /// The stable identifier of a row. Default `"row-{section}-{row}"`, which is not stable
    /// across inserts: override it.
    func rowID(forRowAt indexPath: TableIndexPath) -> RowID
    /// The header title (`titleForHeaderInSection`). Default nil.
    func titleForHeader(inSection section: Int) -> String?
    /// The footer title (`titleForFooterInSection`). Default nil.
    func titleForFooter(inSection section: Int) -> String?
    /// Whether the row can be edited (`canEditRowAt`). Default false.
    func canEditRow(at indexPath: TableIndexPath) -> Bool
    /// Commits a deletion or insertion (`commit(_:forRowAt:)`); `values` carries the fields
    /// submitted with an insertion and is empty for a deletion. Default: does nothing.
    ///
    /// The table wraps this call in a batch: update the data, then report the change through
    /// the context (`deleteRows(at:)` / `insertRows(at:)`), as UIKit expects.
    /// - Throws: whatever kept the change from being made (a failed store write); throw before
    ///   changing anything: the table then discards the batch and publishes nothing.
    func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws
    /// Whether the row can be moved (`canMoveRowAt`). Default false.
    func canMoveRow(at indexPath: TableIndexPath) -> Bool
    /// Moves a row in the data (`moveRowAt:to:`); the table records the move itself once this
    /// returns. Default: does nothing.
    /// - Throws: whatever kept the move from being made; the table then records no move.
    func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws
    /// The titles of the section index (`sectionIndexTitles(for:)`). Default nil (no index).
    func sectionIndexTitles() -> [String]?
    /// The section a section-index title leads to (`sectionForSectionIndexTitle:at:`).
    /// Default `index`.
    func section(forSectionIndexTitle title: String, at index: Int) -> Int
}
