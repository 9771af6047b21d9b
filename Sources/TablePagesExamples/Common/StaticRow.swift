import TableKit

/// A row delegate that shows one fixed cell and does nothing when selected: the info rows of
/// the destination page, a review, the to-do progress summary.
///
///     StaticRow(id: "address", cell: TableCell(.value, CellContent(title: "Address", detail: "…")))
class StaticRow: CascadingBareTableDelegate {
    let id: RowID
    var cell: TableCell

    init(id: RowID, cell: TableCell) {
        self.id = id
        self.cell = cell
        super.init()
    }

    override func rowID(forRowAt indexPath: IndexPath) -> RowID { id }
    override func cell(forRowAt indexPath: IndexPath) -> TableCell { cell }
    // Nothing happens on selection, so the row renders without a select form.
    override func shouldHighlightRow(at indexPath: IndexPath) -> Bool { false }
}
