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
    // `childDelegate(forSection:)` stays nil: a section delegate answers section calls itself.

    /// Child `indexPath.row`; nil when the row is out of range.
    open override func childDelegate(forRowAt indexPath: TableIndexPath) -> (any CascadingTableDelegate)? {
        child(at: indexPath.row)
    }

    /// The number of children.
    open override func numberOfRows(inSection section: Int) -> Int { childDelegates.count }
    /// This section delegate's own index: a section answers for its own index titles.
    open override func section(forSectionIndexTitle title: String, at index: Int) -> Int { self.index }
}
