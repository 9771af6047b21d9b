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
    /// Child `section`; nil when the section is out of range.
    open override func childDelegate(forSection section: Int) -> (any CascadingTableDelegate)? { child(at: section) }
    /// Child `indexPath.section`; nil when the section is out of range.
    open override func childDelegate(forRowAt indexPath: TableIndexPath) -> (any CascadingTableDelegate)? {
        child(at: indexPath.section)
    }

    /// The number of children.
    open override func numberOfSections() -> Int { childDelegates.count }
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
}
