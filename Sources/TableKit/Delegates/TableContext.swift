/// The narrow view of a table that delegates and cells get in `prepare(table:)`: batch updates
/// and identifier lookups, never the table itself (IGListKit's `collectionContext`).
///
/// Its methods are called inside the table's isolation (from a delegate method, an action). Work
/// that finishes elsewhere, in a `Task` say, goes through ``updater`` instead.
///
///     tableContext?.performBatchUpdates {
///         todos.remove(at: 2)
///         tableContext?.deleteRows(at: [TableIndexPath(section: 0, row: 2)])
///     }
///
/// Implementation requirements: calls between `beginUpdates()` and the matching `endUpdates()`
/// are collected into one changeset, deletes and reloads using index paths from before the
/// batch and inserts after it (UIKit's rules); batches nest, and only the outermost
/// `endUpdates()` commits. A call outside any batch commits at once. `reloadData()` or
/// `reconcileData()` inside a batch is carried out when it commits, in place of the batch's
/// other updates.
public protocol TableContext: AnyObject {
    /// Opens (or nests) a batch.
    func beginUpdates()
    /// Closes a batch; the outermost one validates and commits it.
    /// - Throws: ``TableError/inconsistentBatch(_:)`` when counts do not add up; subscribers
    ///   are sent a reset before the error is thrown.
    func endUpdates() throws
    /// Runs `updates` inside one batch; when it throws, the batch is discarded and nothing is
    /// published for it.
    func performBatchUpdates(_ updates: () throws -> Void) throws
    /// Reloads everything; subscribers are sent a reset when anything changed.
    func reloadData()
    /// Reloads everything and sends only what changed, found by identifier and content.
    func reconcileData()
    /// Inserts rows at index paths after the batch.
    func insertRows(at indexPaths: [TableIndexPath])
    /// Deletes rows at index paths before the batch.
    func deleteRows(at indexPaths: [TableIndexPath])
    /// Re-reads rows at index paths before the batch; unchanged rows produce nothing.
    func reloadRows(at indexPaths: [TableIndexPath])
    /// Moves a row from an index path before the batch to one after it.
    func moveRow(at source: TableIndexPath, to destination: TableIndexPath)
    /// Inserts sections at indexes after the batch.
    func insertSections(_ sections: [Int])
    /// Deletes sections at indexes before the batch.
    func deleteSections(_ sections: [Int])
    /// Re-reads sections at indexes before the batch.
    func reloadSections(_ sections: [Int])
    /// Moves a section from an index before the batch to one after it.
    func moveSection(_ section: Int, toSection newSection: Int)
    /// The index path of a row in the last committed state, or nil.
    func indexPath(forRowID id: RowID) -> TableIndexPath?
    /// The index of a section in the last committed state, or nil.
    func sectionIndex(forSectionID id: SectionID) -> Int?
    /// Leads the person whose selection is being handled to another page, as `show(_:sender:)`
    /// pushes a view controller: `location` is a path on this site (`/pages/product?id=3`);
    /// anything else is ignored, so data can never turn a page into an open redirect.
    func show(_ location: String)
    /// The table's way in for changes from outside its isolation (a background task, another
    /// thread): `Sendable`, so a delegate may hand it to any task. See ``TableUpdater``.
    var updater: TableUpdater { get }
}
