/// The update calls collected between `beginUpdates()` and `endUpdates()`, in UIKit's terms:
/// deletes and reloads use index paths before the batch, inserts after it.
struct BatchUpdates {
    var insertedRows: [IndexPath] = []
    var deletedRows: [IndexPath] = []
    var reloadedRows: [IndexPath] = []
    var movedRows: [(from: IndexPath, to: IndexPath)] = []
    var insertedSections: [Int] = []
    var deletedSections: [Int] = []
    var reloadedSections: [Int] = []
    var movedSections: [(from: Int, to: Int)] = []
    /// `reloadData()` was called inside the batch: everything is re-read.
    var reloadsAll = false

    var isEmpty: Bool {
        !reloadsAll && insertedRows.isEmpty && deletedRows.isEmpty && reloadedRows.isEmpty && movedRows.isEmpty
            && insertedSections.isEmpty && deletedSections.isEmpty && reloadedSections.isEmpty && movedSections.isEmpty
    }
}
