/// The update calls collected between `beginUpdates()` and `endUpdates()`, in UIKit's terms:
/// deletes and reloads use index paths before the batch, inserts after it.
struct BatchUpdates {
    var insertedRows: [TableIndexPath] = []
    var deletedRows: [TableIndexPath] = []
    var reloadedRows: [TableIndexPath] = []
    var movedRows: [(from: TableIndexPath, to: TableIndexPath)] = []
    var insertedSections: [Int] = []
    var deletedSections: [Int] = []
    var reloadedSections: [Int] = []
    var movedSections: [(from: Int, to: Int)] = []
    /// Rows whose content may have changed, by identifier, whether they stay or move. UIKit
    /// forbids reloading a moved row; a diff needs exactly that (UIKit's `reconfigureItems`), so
    /// these rows get a replace after their placement instead.
    var reconfiguredRows: Set<RowID> = []
    /// `reloadData()` was called inside the batch: everything is re-read.
    var reloadsAll = false
    /// `reconcileData()` was called inside the batch: the changes are found by diffing, which
    /// covers everything recorded above.
    var reconcilesAll = false

    var isEmpty: Bool {
        !reloadsAll && !reconcilesAll && insertedRows.isEmpty && deletedRows.isEmpty && reloadedRows.isEmpty
            && movedRows.isEmpty && reconfiguredRows.isEmpty && insertedSections.isEmpty && deletedSections.isEmpty
            && reloadedSections.isEmpty && movedSections.isEmpty
    }
}
