/// A node of a delegate tree (CascadingTableDelegate): a root owns section delegates, sections
/// own row delegates, and each call is routed to the child it concerns, the one
/// ``childDelegate(forSection:)`` or ``childDelegate(forRowAt:)`` names.
///
///     let root = CascadingRootTableDelegate(childDelegates: [openSection, doneSection])
///     let table = TableAdapter(root: root)
///
/// Implementation requirements: setting ``childDelegates`` must set each child's ``index`` to
/// its position and its ``parentDelegate`` to the receiver; ``TableDelegate/prepare(table:)`` must store the
/// context and prepare every child. Subclass one of the provided classes
/// (``CascadingRootTableDelegate``, ``CascadingSectionTableDelegate``,
/// ``CascadingBareTableDelegate``) rather than conforming from scratch: override a method and
/// call `super` to keep routing to children, or override the two hooks to route another way.
public protocol CascadingTableDelegate: AnyObject, TableDataSource, TableDelegate, TablePrefetchingDataSource, CellUpdateDelegate {
    /// The receiver's position in its parent: a section for a root's child, a row for a section's child.
    var index: Int { get set }
    /// The children calls are routed to.
    var childDelegates: [any CascadingTableDelegate] { get set }
    /// The parent; held weakly.
    var parentDelegate: (any CascadingTableDelegate)? { get set }
    /// The child that answers the section calls for `section` (its header, footer, identifier and
    /// row count), or nil to answer them with the defaults: a root names child `section`.
    func childDelegate(forSection section: Int) -> (any CascadingTableDelegate)?
    /// The child that answers the row calls for `indexPath` (its cell, identifier, height,
    /// selection, editing, actions, moves from it and prefetching), or nil to answer them with the
    /// defaults: a root names child `indexPath.section`, a section child `indexPath.row`.
    func childDelegate(forRowAt indexPath: TableIndexPath) -> (any CascadingTableDelegate)?
}
