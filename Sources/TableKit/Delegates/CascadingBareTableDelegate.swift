/// A cascading delegate that routes nothing: every call gets the default answer until a
/// subclass overrides it. Use it for row delegates and as the base of the other cascading classes.
///
///     final class TodoRow: CascadingBareTableDelegate {
///         let todo: Todo
///         init(todo: Todo) { self.todo = todo; super.init() }
///         override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.basic, TodoCell(todo: todo)) }
///         override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID(todo.id) }
///     }
open class CascadingBareTableDelegate: CascadingTableDelegate {
    /// The position in the parent: a section for a root's child, a row for a section's child.
    public var index: Int
    /// The children; setting them re-indexes them, sets their parent and prepares them when
    /// the receiver is already prepared.
    public var childDelegates: [any CascadingTableDelegate] {
        didSet { adoptChildDelegates() }
    }
    /// The parent, held weakly so the tree has no cycles.
    public weak var parentDelegate: (any CascadingTableDelegate)?
    /// The table context given by ``prepare(table:)``; held weakly because the table owns the tree.
    public private(set) weak var tableContext: (any TableContext)?

    /// Creates a node at `index` with children.
    public init(index: Int = 0, childDelegates: [any CascadingTableDelegate] = []) {
        self.index = index
        self.childDelegates = childDelegates
        adoptChildDelegates()
    }

    /// Stores the context and prepares every child. Override to keep your own reference, and call super.
    open func prepare(table: any TableContext) {
        tableContext = table
        for child in childDelegates {
            child.prepare(table: table)
        }
    }

    /// The child at `index`, or nil when the index is negative or past the end.
    public func childDelegate(at index: Int) -> (any CascadingTableDelegate)? {
        childDelegates.indices.contains(index) ? childDelegates[index] : nil
    }

    private func adoptChildDelegates() {
        for (position, child) in childDelegates.enumerated() {
            child.index = position
            child.parentDelegate = self
            if let tableContext {
                child.prepare(table: tableContext)
            }
        }
    }

    // MARK: Cell updates

    /// Passes the signal to the parent; the root (no parent) opens a batch.
    open func cellWillBeginUpdate(_ row: RowID) {
        if let parentDelegate {
            parentDelegate.cellWillBeginUpdate(row)
        } else {
            tableContext?.beginUpdates()
        }
    }

    /// Passes the signal to the parent; the root (no parent) reloads the row and closes the batch.
    open func cellDidEndUpdate(_ row: RowID) {
        if let parentDelegate {
            parentDelegate.cellDidEndUpdate(row)
        } else if let tableContext {
            tableContext.reloadRows(withIDs: [row])
            // A cell cannot handle an inconsistent batch; the table has already sent
            // subscribers a reset, which is the recovery.
            try? tableContext.endUpdates()
        }
    }

    // MARK: Data source

    /// Default 1.
    open func numberOfSections() -> Int { DefaultTableDelegate().numberOfSections() }
    /// Default 0.
    open func numberOfRows(inSection section: Int) -> Int { DefaultTableDelegate().numberOfRows(inSection: section) }
    /// Default ``TableCell/blank``.
    open func cell(forRowAt indexPath: TableIndexPath) -> TableCell { DefaultTableDelegate().cell(forRowAt: indexPath) }
    /// Default `"section-{index}"`.
    open func sectionID(forSection section: Int) -> SectionID { DefaultTableDelegate().sectionID(forSection: section) }
    /// Default `"row-{section}-{row}"`.
    open func rowID(forRowAt indexPath: TableIndexPath) -> RowID { DefaultTableDelegate().rowID(forRowAt: indexPath) }
    /// Default nil.
    open func titleForHeader(inSection section: Int) -> String? { DefaultTableDelegate().titleForHeader(inSection: section) }
    /// Default nil.
    open func titleForFooter(inSection section: Int) -> String? { DefaultTableDelegate().titleForFooter(inSection: section) }
    /// Default false.
    open func canEditRow(at indexPath: TableIndexPath) -> Bool { DefaultTableDelegate().canEditRow(at: indexPath) }
    /// Default: does nothing.
    open func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {}
    /// Default false.
    open func canMoveRow(at indexPath: TableIndexPath) -> Bool { DefaultTableDelegate().canMoveRow(at: indexPath) }
    /// Default: does nothing.
    open func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {}
    /// Default nil.
    open func sectionIndexTitles() -> [String]? { DefaultTableDelegate().sectionIndexTitles() }
    /// Default `index`.
    open func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        DefaultTableDelegate().section(forSectionIndexTitle: title, at: index)
    }

    // MARK: Delegate

    /// Default `.automatic`.
    open func heightForRow(at indexPath: TableIndexPath) -> TableHeight { DefaultTableDelegate().heightForRow(at: indexPath) }
    /// Default nil.
    open func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? { DefaultTableDelegate().estimatedHeightForRow(at: indexPath) }
    /// Default 0.
    open func indentationLevelForRow(at indexPath: TableIndexPath) -> Int { DefaultTableDelegate().indentationLevelForRow(at: indexPath) }
    /// Default `.points(0)`.
    open func heightForHeader(inSection section: Int) -> TableHeight { DefaultTableDelegate().heightForHeader(inSection: section) }
    /// Default `.points(0)`.
    open func heightForFooter(inSection section: Int) -> TableHeight { DefaultTableDelegate().heightForFooter(inSection: section) }
    /// Default nil.
    open func estimatedHeightForHeader(inSection section: Int) -> TableHeight? {
        DefaultTableDelegate().estimatedHeightForHeader(inSection: section)
    }
    /// Default nil.
    open func estimatedHeightForFooter(inSection section: Int) -> TableHeight? {
        DefaultTableDelegate().estimatedHeightForFooter(inSection: section)
    }
    /// Default nil.
    open func viewForHeader(inSection section: Int) -> TableCell? { DefaultTableDelegate().viewForHeader(inSection: section) }
    /// Default nil.
    open func viewForFooter(inSection section: Int) -> TableCell? { DefaultTableDelegate().viewForFooter(inSection: section) }
    /// Default true.
    open func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { DefaultTableDelegate().shouldHighlightRow(at: indexPath) }
    /// Default `indexPath`.
    open func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath? { DefaultTableDelegate().willSelectRow(at: indexPath) }
    /// Default: does nothing.
    open func didSelectRow(at indexPath: TableIndexPath) throws {}
    /// Default `indexPath`.
    open func willDeselectRow(at indexPath: TableIndexPath) -> TableIndexPath? { DefaultTableDelegate().willDeselectRow(at: indexPath) }
    /// Default: does nothing.
    open func didDeselectRow(at indexPath: TableIndexPath) throws {}
    /// Default `.none`.
    open func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { DefaultTableDelegate().editingStyleForRow(at: indexPath) }
    /// Default nil.
    open func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String? {
        DefaultTableDelegate().titleForDeleteConfirmationButtonForRow(at: indexPath)
    }
    /// Default none.
    open func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { DefaultTableDelegate().actionsForRow(at: indexPath) }
    /// Default: does nothing.
    open func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {}
    /// Default `proposed`.
    open func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath {
        DefaultTableDelegate().targetIndexPathForMove(from: source, toProposed: proposed)
    }
    /// Default: does nothing.
    open func willDisplayRow(at indexPath: TableIndexPath) {}
    /// Default: does nothing.
    open func didEndDisplayingRow(at indexPath: TableIndexPath) {}
    /// Default: does nothing.
    open func willDisplayHeader(inSection section: Int) {}
    /// Default: does nothing.
    open func didEndDisplayingHeader(inSection section: Int) {}
    /// Default: does nothing.
    open func willDisplayFooter(inSection section: Int) {}
    /// Default: does nothing.
    open func didEndDisplayingFooter(inSection section: Int) {}

    // MARK: Prefetching

    /// Default: does nothing.
    open func prefetchRows(at indexPaths: [TableIndexPath]) {}
    /// Default: does nothing.
    open func cancelPrefetchingForRows(at indexPaths: [TableIndexPath]) {}
}
