/// Receives a cell's signal that its content or height is changing, without the cell knowing
/// the table.
///
/// A cell (or the object behind its content: an image loader, a live record) keeps a weak
/// reference to its update delegate, usually its row's delegate, and brackets its change:
///
///     updateDelegate?.cellWillBeginUpdate(rowID)
///     image = loaded
///     updateDelegate?.cellDidEndUpdate(rowID)
///
/// Cascading delegates pass the signal up the parent chain; the root turns it into a row
/// reload, joining the batch in progress if there is one.
///
/// Implementation requirements: every `cellWillBeginUpdate(_:)` is followed by exactly one
/// `cellDidEndUpdate(_:)` for the same row; the pair may nest inside a batch.
public protocol CellUpdateDelegate: AnyObject {
    /// The cell of `row` is about to change.
    func cellWillBeginUpdate(_ row: RowID)
    /// The cell of `row` has changed; reload it.
    func cellDidEndUpdate(_ row: RowID)
}
