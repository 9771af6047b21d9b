/// Receives a cell's signal that its content or height is changing, without the cell knowing
/// the table.
///
/// Inside the table's isolation (a delegate method, an action) a delegate brackets a change to
/// what its cell shows:
///
///     cellWillBeginUpdate(id)
///     isExpanded.toggle()
///     cellDidEndUpdate(id)
///
/// Cascading delegates pass the signal up the parent chain; the root turns it into a row
/// reload, joining the batch in progress if there is one.
///
/// A change that finishes outside the table's isolation (an image loaded in a `Task`) cannot
/// call these methods: the delegates are not `Sendable`. It goes through the table's
/// ``TableUpdater`` instead, which runs the change inside the table's isolation and brackets it
/// with these signals:
///
///     let updater = tableContext!.updater
///     Task.detached {
///         let image = await loader.load(url)
///         updater.updateRow(id, of: PhotoRow.self) { row in row.image = image }
///     }
///
/// Implementation requirements: every `cellWillBeginUpdate(_:)` is followed by exactly one
/// `cellDidEndUpdate(_:)` for the same row; the pair may nest inside a batch.
public protocol CellUpdateDelegate: AnyObject {
    /// The cell of `row` is about to change.
    func cellWillBeginUpdate(_ row: RowID)
    /// The cell of `row` has changed; reload it.
    func cellDidEndUpdate(_ row: RowID)
}
