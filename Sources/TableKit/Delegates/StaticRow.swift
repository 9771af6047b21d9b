/// A row that shows one fixed cell and does nothing when selected: an info row, a summary.
///
///     StaticRow(id: "address", cell: TableCell(.value, CellContent(title: "Address", detail: "…")))
///
/// Subclass it for a row that reacts (override `didSelectRow`, and `shouldHighlightRow` to allow it).
open class StaticRow: CascadingBareTableDelegate {
    /// The row's identifier.
    public let id: RowID
    /// What the row shows; after changing it, report the change (or let the cell signal it).
    public var cell: TableCell

    /// Creates a row showing `cell`.
    public init(id: RowID, cell: TableCell) {
        self.id = id
        self.cell = cell
        super.init()
    }

    /// The fixed identifier.
    open override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { id }
    /// The fixed cell.
    open override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { cell }
    /// Not selectable, so the row renders without a select form.
    open override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { false }
}
