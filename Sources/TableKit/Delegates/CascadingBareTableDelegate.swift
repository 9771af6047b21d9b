/// The cascading delegate every other one builds on: it routes each data-source, delegate and
/// prefetching call to the child one of two hooks names, and answers with the protocol's default
/// when the hook names none. The bare class names no child, so every call gets the default until a
/// subclass overrides it: use it for row delegates.
///
///     final class TodoRow: CascadingBareTableDelegate {
///         let todo: Todo
///         init(todo: Todo) { self.todo = todo; super.init() }
///         override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.basic, TodoCell(todo: todo)) }
///         override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID(todo.id) }
///     }
///
/// Routing: a section call (`titleForHeader(inSection: 2)`) goes to ``childDelegate(forSection:)``,
/// a row call (`cell(forRowAt: [2, 5])`) to ``childDelegate(forRowAt:)``, with the arguments
/// unchanged; a move goes where its source row goes. An estimated height falls back to the
/// child's estimate, then the child's height. Prefetching hands each child the paths it answers
/// for, in first-seen order. ``CascadingRootTableDelegate`` and ``CascadingSectionTableDelegate``
/// override only the hooks; override them yourself to route some other way.
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

    /// The child that answers the section calls for `section`; nil, the bare class's answer,
    /// gives every section call its default.
    open func childDelegate(forSection section: Int) -> (any CascadingTableDelegate)? { nil }

    /// The child that answers the row calls for `indexPath`; nil, the bare class's answer, gives
    /// every row call its default.
    open func childDelegate(forRowAt indexPath: TableIndexPath) -> (any CascadingTableDelegate)? { nil }

    /// The child at `position`, or nil when the position is negative or past the end.
    func child(at position: Int) -> (any CascadingTableDelegate)? {
        childDelegates.indices.contains(position) ? childDelegates[position] : nil
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

    /// Not routed: the default; ``CascadingRootTableDelegate`` counts its children.
    open func numberOfSections() -> Int { DefaultTableDelegate().numberOfSections() }
    /// Routed to ``childDelegate(forSection:)``.
    open func numberOfRows(inSection section: Int) -> Int { responder(forSection: section).numberOfRows(inSection: section) }
    /// Routed to ``childDelegate(forSection:)``, so a section delegate may hold a window of its own.
    open func numberOfRowsAfterWindow(inSection section: Int) -> Int? {
        responder(forSection: section).numberOfRowsAfterWindow(inSection: section)
    }
    /// Routed to ``childDelegate(forSection:)``.
    open func hasUniformRows(inSection section: Int) -> Bool { responder(forSection: section).hasUniformRows(inSection: section) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func cell(forRowAt indexPath: TableIndexPath) -> TableCell { responder(forRowAt: indexPath).cell(forRowAt: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)``; without one, the fields of this delegate's own
    /// ``cell(forRowAt:)``, which a row delegate (a ``StaticRow``) overrides: the protocol's
    /// default would write those of a blank cell.
    open func writeFields(forRowAt indexPath: TableIndexPath, into fields: inout JSONFieldWriter) {
        guard let child = childDelegate(forRowAt: indexPath) else {
            fields.write(fieldsOf: cell(forRowAt: indexPath))
            return
        }
        child.writeFields(forRowAt: indexPath, into: &fields)
    }
    /// Routed to ``childDelegate(forSection:)``.
    open func sectionID(forSection section: Int) -> SectionID { responder(forSection: section).sectionID(forSection: section) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func rowID(forRowAt indexPath: TableIndexPath) -> RowID { responder(forRowAt: indexPath).rowID(forRowAt: indexPath) }
    /// Routed to ``childDelegate(forSection:)``.
    open func titleForHeader(inSection section: Int) -> String? { responder(forSection: section).titleForHeader(inSection: section) }
    /// Routed to ``childDelegate(forSection:)``.
    open func titleForFooter(inSection section: Int) -> String? { responder(forSection: section).titleForFooter(inSection: section) }
    /// Routed to ``childDelegate(forSection:)``.
    open func titleForFooterWithControls(inSection section: Int) -> String? {
        responder(forSection: section).titleForFooterWithControls(inSection: section)
    }
    /// Routed to ``childDelegate(forSection:)``.
    open func fieldsForInserting(inSection section: Int) -> [FormField] { responder(forSection: section).fieldsForInserting(inSection: section) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func canEditRow(at indexPath: TableIndexPath) -> Bool { responder(forRowAt: indexPath).canEditRow(at: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        try responder(forRowAt: indexPath).commit(editingStyle, forRowAt: indexPath, values: values)
    }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func canMoveRow(at indexPath: TableIndexPath) -> Bool { responder(forRowAt: indexPath).canMoveRow(at: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)`` for the source.
    open func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {
        try responder(forRowAt: source).moveRow(from: source, to: destination)
    }
    /// Not routed: the default; it belongs to the root, which a subclass overrides.
    open func titleForTable() -> String? { DefaultTableDelegate().titleForTable() }
    /// Not routed: the default; it belongs to the root, which a subclass overrides.
    open func headerViewForTable() -> TableCell? { DefaultTableDelegate().headerViewForTable() }
    /// Not routed: the default; it belongs to the root, which a subclass overrides.
    open func jsonPropertiesForTable() -> [JSONProperty] { DefaultTableDelegate().jsonPropertiesForTable() }
    /// Not routed: the default; ``CascadingRootTableDelegate`` gathers its children's.
    open func sectionIndexTitles() -> [String]? { DefaultTableDelegate().sectionIndexTitles() }
    /// Not routed: the default; a root asks the child that gave the title, a section answers its index.
    open func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        DefaultTableDelegate().section(forSectionIndexTitle: title, at: index)
    }

    // MARK: Delegate

    /// Routed to ``childDelegate(forRowAt:)``.
    open func heightForRow(at indexPath: TableIndexPath) -> TableHeight { responder(forRowAt: indexPath).heightForRow(at: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)``: the child's estimate, else the child's height.
    open func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? {
        estimate(from: childDelegate(forRowAt: indexPath)) { $0.estimatedHeightForRow(at: indexPath) } height: {
            $0.heightForRow(at: indexPath)
        }
    }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func indentationLevelForRow(at indexPath: TableIndexPath) -> Int {
        responder(forRowAt: indexPath).indentationLevelForRow(at: indexPath)
    }
    /// Routed to ``childDelegate(forSection:)``.
    open func heightForHeader(inSection section: Int) -> TableHeight { responder(forSection: section).heightForHeader(inSection: section) }
    /// Routed to ``childDelegate(forSection:)``.
    open func heightForFooter(inSection section: Int) -> TableHeight { responder(forSection: section).heightForFooter(inSection: section) }
    /// Routed to ``childDelegate(forSection:)``: the child's estimate, else the child's header height.
    open func estimatedHeightForHeader(inSection section: Int) -> TableHeight? {
        estimate(from: childDelegate(forSection: section)) { $0.estimatedHeightForHeader(inSection: section) } height: {
            $0.heightForHeader(inSection: section)
        }
    }
    /// Routed to ``childDelegate(forSection:)``: the child's estimate, else the child's footer height.
    open func estimatedHeightForFooter(inSection section: Int) -> TableHeight? {
        estimate(from: childDelegate(forSection: section)) { $0.estimatedHeightForFooter(inSection: section) } height: {
            $0.heightForFooter(inSection: section)
        }
    }
    /// Routed to ``childDelegate(forSection:)``.
    open func viewForHeader(inSection section: Int) -> TableCell? { responder(forSection: section).viewForHeader(inSection: section) }
    /// Routed to ``childDelegate(forSection:)``.
    open func viewForFooter(inSection section: Int) -> TableCell? { responder(forSection: section).viewForFooter(inSection: section) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { responder(forRowAt: indexPath).shouldHighlightRow(at: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func linkForRow(at indexPath: TableIndexPath) -> String? { responder(forRowAt: indexPath).linkForRow(at: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath? { responder(forRowAt: indexPath).willSelectRow(at: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func didSelectRow(at indexPath: TableIndexPath) throws { try responder(forRowAt: indexPath).didSelectRow(at: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func willDeselectRow(at indexPath: TableIndexPath) -> TableIndexPath? {
        responder(forRowAt: indexPath).willDeselectRow(at: indexPath)
    }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func didDeselectRow(at indexPath: TableIndexPath) throws { try responder(forRowAt: indexPath).didDeselectRow(at: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle {
        responder(forRowAt: indexPath).editingStyleForRow(at: indexPath)
    }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String? {
        responder(forRowAt: indexPath).titleForDeleteConfirmationButtonForRow(at: indexPath)
    }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { responder(forRowAt: indexPath).actionsForRow(at: indexPath) }
    /// Routed to ``childDelegate(forRowAt:)``.
    open func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        try responder(forRowAt: indexPath).performAction(named: name, forRowAt: indexPath, values: values)
    }
    /// Routed to ``childDelegate(forRowAt:)`` for the source.
    open func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath {
        responder(forRowAt: source).targetIndexPathForMove(from: source, toProposed: proposed)
    }

    // MARK: Prefetching

    /// Each child ``childDelegate(forRowAt:)`` names receives its paths; the others reach no one.
    open func prefetchRows(at indexPaths: [TableIndexPath]) {
        forEachChild(owning: indexPaths) { $0.prefetchRows(at: $1) }
    }
    /// Each child ``childDelegate(forRowAt:)`` names receives its paths; the others reach no one.
    open func cancelPrefetchingForRows(at indexPaths: [TableIndexPath]) {
        forEachChild(owning: indexPaths) { $0.cancelPrefetchingForRows(at: $1) }
    }
}
