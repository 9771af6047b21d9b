/// A cascading delegate that routes by row: child `n` answers for row `n` of this section.
///
/// Row calls (`cell(forRowAt: [s, 4])`) go to child 4 with the arguments unchanged; a row out of
/// range gets the default and reaches no child. Section calls (titles, header and footer views
/// and heights) are answered by the section delegate itself: override them here.
///
///     final class FruitSection: CascadingSectionTableDelegate {
///         override func titleForHeader(inSection section: Int) -> String? { "Fruit" }
///     }
///     let section = FruitSection(childDelegates: apples.map(AppleRow.init))
open class CascadingSectionTableDelegate: CascadingBareTableDelegate {
    // Section-level calls (titles, header and footer views and heights) are deliberately not
    // overridden: a section delegate answers them itself.

    /// This section delegate's own index: a section answers for its own index titles.
    open override func section(forSectionIndexTitle title: String, at index: Int) -> Int { self.index }

    /// The number of children.
    open override func numberOfRows(inSection section: Int) -> Int { childDelegates.count }
    /// Routed by row.
    open override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        childDelegate(at: indexPath.row)?.cell(forRowAt: indexPath) ?? super.cell(forRowAt: indexPath)
    }
    /// Routed by row.
    open override func rowID(forRowAt indexPath: TableIndexPath) -> RowID {
        childDelegate(at: indexPath.row)?.rowID(forRowAt: indexPath) ?? super.rowID(forRowAt: indexPath)
    }
    /// Routed by row.
    open override func canEditRow(at indexPath: TableIndexPath) -> Bool {
        childDelegate(at: indexPath.row)?.canEditRow(at: indexPath) ?? super.canEditRow(at: indexPath)
    }
    /// Routed by row.
    open override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        try childDelegate(at: indexPath.row)?.commit(editingStyle, forRowAt: indexPath, values: values)
    }
    /// Routed by row.
    open override func canMoveRow(at indexPath: TableIndexPath) -> Bool {
        childDelegate(at: indexPath.row)?.canMoveRow(at: indexPath) ?? super.canMoveRow(at: indexPath)
    }
    /// Routed by the source's row.
    open override func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {
        try childDelegate(at: source.row)?.moveRow(from: source, to: destination)
    }
    /// Routed by row.
    open override func heightForRow(at indexPath: TableIndexPath) -> TableHeight {
        childDelegate(at: indexPath.row)?.heightForRow(at: indexPath) ?? super.heightForRow(at: indexPath)
    }
    /// The child's estimate, else the child's height; the default when out of range.
    open override func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? {
        guard let child = childDelegate(at: indexPath.row) else { return super.estimatedHeightForRow(at: indexPath) }
        return child.estimatedHeightForRow(at: indexPath) ?? child.heightForRow(at: indexPath)
    }
    /// Routed by row.
    open override func indentationLevelForRow(at indexPath: TableIndexPath) -> Int {
        childDelegate(at: indexPath.row)?.indentationLevelForRow(at: indexPath) ?? super.indentationLevelForRow(at: indexPath)
    }
    /// Routed by row.
    open override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool {
        childDelegate(at: indexPath.row)?.shouldHighlightRow(at: indexPath) ?? super.shouldHighlightRow(at: indexPath)
    }
    /// Routed by row.
    open override func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath? {
        guard let child = childDelegate(at: indexPath.row) else { return super.willSelectRow(at: indexPath) }
        return child.willSelectRow(at: indexPath)
    }
    /// Routed by row.
    open override func didSelectRow(at indexPath: TableIndexPath) throws {
        try childDelegate(at: indexPath.row)?.didSelectRow(at: indexPath)
    }
    /// Routed by row.
    open override func willDeselectRow(at indexPath: TableIndexPath) -> TableIndexPath? {
        guard let child = childDelegate(at: indexPath.row) else { return super.willDeselectRow(at: indexPath) }
        return child.willDeselectRow(at: indexPath)
    }
    /// Routed by row.
    open override func didDeselectRow(at indexPath: TableIndexPath) throws {
        try childDelegate(at: indexPath.row)?.didDeselectRow(at: indexPath)
    }
    /// Routed by row.
    open override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle {
        childDelegate(at: indexPath.row)?.editingStyleForRow(at: indexPath) ?? super.editingStyleForRow(at: indexPath)
    }
    /// Routed by row.
    open override func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String? {
        guard let child = childDelegate(at: indexPath.row) else {
            return super.titleForDeleteConfirmationButtonForRow(at: indexPath)
        }
        return child.titleForDeleteConfirmationButtonForRow(at: indexPath)
    }
    /// Routed by row.
    open override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] {
        childDelegate(at: indexPath.row)?.actionsForRow(at: indexPath) ?? super.actionsForRow(at: indexPath)
    }
    /// Routed by row.
    open override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        try childDelegate(at: indexPath.row)?.performAction(named: name, forRowAt: indexPath, values: values)
    }
    /// Routed by the source's row.
    open override func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath {
        childDelegate(at: source.row)?.targetIndexPathForMove(from: source, toProposed: proposed)
            ?? super.targetIndexPathForMove(from: source, toProposed: proposed)
    }
    /// Routed by row.
    open override func willDisplayRow(at indexPath: TableIndexPath) {
        childDelegate(at: indexPath.row)?.willDisplayRow(at: indexPath)
    }
    /// Routed by row.
    open override func didEndDisplayingRow(at indexPath: TableIndexPath) {
        childDelegate(at: indexPath.row)?.didEndDisplayingRow(at: indexPath)
    }
    /// Each child receives the paths of its row.
    open override func prefetchRows(at indexPaths: [TableIndexPath]) {
        forEachChild(owning: indexPaths, childIndex: \.row) { $0.prefetchRows(at: $1) }
    }
    /// Each child receives the paths of its row.
    open override func cancelPrefetchingForRows(at indexPaths: [TableIndexPath]) {
        forEachChild(owning: indexPaths, childIndex: \.row) { $0.cancelPrefetchingForRows(at: $1) }
    }
}
