/// A cascading delegate that routes by section: child `n` answers for section `n`.
///
/// Section calls (`numberOfRows(inSection: 2)`) and row calls (`cell(forRowAt: [2, 5])`) go to
/// child 2 with the arguments unchanged; a section out of range gets the default and reaches no
/// child. Estimated heights fall back to the child's estimate, then the child's height.
///
///     let root = CascadingRootTableDelegate(childDelegates: [
///         ProductsSection(category: .fruit), ProductsSection(category: .vegetables),
///     ])
open class CascadingRootTableDelegate: CascadingBareTableDelegate {
    // MARK: Data source

    /// The number of children.
    open override func numberOfSections() -> Int { childDelegates.count }
    /// Routed by section.
    open override func numberOfRows(inSection section: Int) -> Int {
        childDelegate(at: section)?.numberOfRows(inSection: section) ?? super.numberOfRows(inSection: section)
    }
    /// Routed by section.
    open override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        childDelegate(at: indexPath.section)?.cell(forRowAt: indexPath) ?? super.cell(forRowAt: indexPath)
    }
    /// Routed by section.
    open override func sectionID(forSection section: Int) -> SectionID {
        childDelegate(at: section)?.sectionID(forSection: section) ?? super.sectionID(forSection: section)
    }
    /// Routed by section.
    open override func rowID(forRowAt indexPath: TableIndexPath) -> RowID {
        childDelegate(at: indexPath.section)?.rowID(forRowAt: indexPath) ?? super.rowID(forRowAt: indexPath)
    }
    /// Routed by section.
    open override func titleForHeader(inSection section: Int) -> String? {
        guard let child = childDelegate(at: section) else { return super.titleForHeader(inSection: section) }
        return child.titleForHeader(inSection: section)
    }
    /// Routed by section.
    open override func titleForFooter(inSection section: Int) -> String? {
        guard let child = childDelegate(at: section) else { return super.titleForFooter(inSection: section) }
        return child.titleForFooter(inSection: section)
    }
    /// Routed by section.
    open override func canEditRow(at indexPath: TableIndexPath) -> Bool {
        childDelegate(at: indexPath.section)?.canEditRow(at: indexPath) ?? super.canEditRow(at: indexPath)
    }
    /// Routed by section.
    open override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        try childDelegate(at: indexPath.section)?.commit(editingStyle, forRowAt: indexPath, values: values)
    }
    /// Routed by section.
    open override func canMoveRow(at indexPath: TableIndexPath) -> Bool {
        childDelegate(at: indexPath.section)?.canMoveRow(at: indexPath) ?? super.canMoveRow(at: indexPath)
    }
    /// Routed by the source's section.
    open override func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {
        try childDelegate(at: source.section)?.moveRow(from: source, to: destination)
    }
    /// The children's titles in order, or nil when no child has any.
    open override func sectionIndexTitles() -> [String]? {
        let titles = childDelegates.compactMap { $0.sectionIndexTitles() }
        return titles.isEmpty ? super.sectionIndexTitles() : titles.flatMap { $0 }
    }
    /// Routed to the child that contributed the title at `index`.
    open override func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        var start = 0
        for child in childDelegates {
            let count = child.sectionIndexTitles()?.count ?? 0
            if index >= start && index < start + count {
                return child.section(forSectionIndexTitle: title, at: index)
            }
            start += count
        }
        return super.section(forSectionIndexTitle: title, at: index)
    }

    // MARK: Delegate

    /// Routed by section.
    open override func heightForRow(at indexPath: TableIndexPath) -> TableHeight {
        childDelegate(at: indexPath.section)?.heightForRow(at: indexPath) ?? super.heightForRow(at: indexPath)
    }
    /// The child's estimate, else the child's height; the default when out of range.
    open override func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? {
        guard let child = childDelegate(at: indexPath.section) else { return super.estimatedHeightForRow(at: indexPath) }
        return child.estimatedHeightForRow(at: indexPath) ?? child.heightForRow(at: indexPath)
    }
    /// Routed by section.
    open override func indentationLevelForRow(at indexPath: TableIndexPath) -> Int {
        childDelegate(at: indexPath.section)?.indentationLevelForRow(at: indexPath) ?? super.indentationLevelForRow(at: indexPath)
    }
    /// Routed by section.
    open override func heightForHeader(inSection section: Int) -> TableHeight {
        childDelegate(at: section)?.heightForHeader(inSection: section) ?? super.heightForHeader(inSection: section)
    }
    /// Routed by section.
    open override func heightForFooter(inSection section: Int) -> TableHeight {
        childDelegate(at: section)?.heightForFooter(inSection: section) ?? super.heightForFooter(inSection: section)
    }
    /// The child's estimate, else the child's height; the default when out of range.
    open override func estimatedHeightForHeader(inSection section: Int) -> TableHeight? {
        guard let child = childDelegate(at: section) else { return super.estimatedHeightForHeader(inSection: section) }
        return child.estimatedHeightForHeader(inSection: section) ?? child.heightForHeader(inSection: section)
    }
    /// The child's estimate, else the child's height; the default when out of range.
    open override func estimatedHeightForFooter(inSection section: Int) -> TableHeight? {
        guard let child = childDelegate(at: section) else { return super.estimatedHeightForFooter(inSection: section) }
        return child.estimatedHeightForFooter(inSection: section) ?? child.heightForFooter(inSection: section)
    }
    /// Routed by section.
    open override func viewForHeader(inSection section: Int) -> TableCell? {
        guard let child = childDelegate(at: section) else { return super.viewForHeader(inSection: section) }
        return child.viewForHeader(inSection: section)
    }
    /// Routed by section.
    open override func viewForFooter(inSection section: Int) -> TableCell? {
        guard let child = childDelegate(at: section) else { return super.viewForFooter(inSection: section) }
        return child.viewForFooter(inSection: section)
    }
    /// Routed by section.
    open override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool {
        childDelegate(at: indexPath.section)?.shouldHighlightRow(at: indexPath) ?? super.shouldHighlightRow(at: indexPath)
    }
    /// Routed by section.
    open override func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath? {
        guard let child = childDelegate(at: indexPath.section) else { return super.willSelectRow(at: indexPath) }
        return child.willSelectRow(at: indexPath)
    }
    /// Routed by section.
    open override func didSelectRow(at indexPath: TableIndexPath) throws {
        try childDelegate(at: indexPath.section)?.didSelectRow(at: indexPath)
    }
    /// Routed by section.
    open override func willDeselectRow(at indexPath: TableIndexPath) -> TableIndexPath? {
        guard let child = childDelegate(at: indexPath.section) else { return super.willDeselectRow(at: indexPath) }
        return child.willDeselectRow(at: indexPath)
    }
    /// Routed by section.
    open override func didDeselectRow(at indexPath: TableIndexPath) throws {
        try childDelegate(at: indexPath.section)?.didDeselectRow(at: indexPath)
    }
    /// Routed by section.
    open override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle {
        childDelegate(at: indexPath.section)?.editingStyleForRow(at: indexPath) ?? super.editingStyleForRow(at: indexPath)
    }
    /// Routed by section.
    open override func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String? {
        guard let child = childDelegate(at: indexPath.section) else {
            return super.titleForDeleteConfirmationButtonForRow(at: indexPath)
        }
        return child.titleForDeleteConfirmationButtonForRow(at: indexPath)
    }
    /// Routed by section.
    open override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] {
        childDelegate(at: indexPath.section)?.actionsForRow(at: indexPath) ?? super.actionsForRow(at: indexPath)
    }
    /// Routed by section.
    open override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        try childDelegate(at: indexPath.section)?.performAction(named: name, forRowAt: indexPath, values: values)
    }
    /// Routed by the source's section.
    open override func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath {
        childDelegate(at: source.section)?.targetIndexPathForMove(from: source, toProposed: proposed)
            ?? super.targetIndexPathForMove(from: source, toProposed: proposed)
    }
    /// Routed by section.
    open override func willDisplayRow(at indexPath: TableIndexPath) {
        childDelegate(at: indexPath.section)?.willDisplayRow(at: indexPath)
    }
    /// Routed by section.
    open override func didEndDisplayingRow(at indexPath: TableIndexPath) {
        childDelegate(at: indexPath.section)?.didEndDisplayingRow(at: indexPath)
    }
    /// Routed by section.
    open override func willDisplayHeader(inSection section: Int) {
        childDelegate(at: section)?.willDisplayHeader(inSection: section)
    }
    /// Routed by section.
    open override func didEndDisplayingHeader(inSection section: Int) {
        childDelegate(at: section)?.didEndDisplayingHeader(inSection: section)
    }
    /// Routed by section.
    open override func willDisplayFooter(inSection section: Int) {
        childDelegate(at: section)?.willDisplayFooter(inSection: section)
    }
    /// Routed by section.
    open override func didEndDisplayingFooter(inSection section: Int) {
        childDelegate(at: section)?.didEndDisplayingFooter(inSection: section)
    }

    // MARK: Prefetching

    /// Each child receives the paths in its section.
    open override func prefetchRows(at indexPaths: [TableIndexPath]) {
        forEachChild(owning: indexPaths, childIndex: \.section) { $0.prefetchRows(at: $1) }
    }
    /// Each child receives the paths in its section.
    open override func cancelPrefetchingForRows(at indexPaths: [TableIndexPath]) {
        forEachChild(owning: indexPaths, childIndex: \.section) { $0.cancelPrefetchingForRows(at: $1) }
    }
}
