/// The delegate half of a table, as `UITableViewDelegate`: heights, header and footer views,
/// selection, editing styles and actions, and moves. A server render has no display lifecycle, so
/// UIKit's `willDisplay`/`didEndDisplaying` callbacks have no counterpart.
///
/// Every requirement has a default implementation, documented with it (`TableDelegate+Defaults.swift`):
/// implement only what your table needs.
///
///     override func didSelectRow(at indexPath: TableIndexPath) throws {
///         try store.toggle(todos[indexPath.row].id)
///         todos[indexPath.row].done.toggle()
///         tableContext?.reloadRows(at: [indexPath])
///     }
///
/// Implementation requirements: answers must be consistent with the data source for the same
/// render. Selection and editing callbacks may change data; report changes through the table
/// context's batch updates. The callbacks that act (`didSelectRow`, `didDeselectRow`,
/// `performAction`) throw when the change could not be made, e.g. a store write failed: throw
/// before changing anything, and the table discards the updates reported so far, publishes
/// nothing and hands the error to whoever asked for the action.
public protocol TableDelegate {
    /// The row height (`heightForRowAt`).
    func heightForRow(at indexPath: TableIndexPath) -> TableHeight
    /// The estimated row height used for rows not loaded yet (`estimatedHeightForRowAt`).
    func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight?
    /// The row's indentation level (`indentationLevelForRowAt`).
    func indentationLevelForRow(at indexPath: TableIndexPath) -> Int
    /// The header height (`heightForHeaderInSection`).
    func heightForHeader(inSection section: Int) -> TableHeight
    /// The footer height (`heightForFooterInSection`).
    func heightForFooter(inSection section: Int) -> TableHeight
    /// The estimated header height (`estimatedHeightForHeaderInSection`).
    func estimatedHeightForHeader(inSection section: Int) -> TableHeight?
    /// The estimated footer height (`estimatedHeightForFooterInSection`).
    func estimatedHeightForFooter(inSection section: Int) -> TableHeight?
    /// A cell-like header view (`viewForHeaderInSection`); replaces the title.
    func viewForHeader(inSection section: Int) -> TableCell?
    /// A cell-like footer view (`viewForFooterInSection`); replaces the title.
    func viewForFooter(inSection section: Int) -> TableCell?
    /// Whether the row reacts to selection (`shouldHighlightRowAt`).
    func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool
    /// A path on this site (`/pages/product?id=3`) the row is a plain link to, for every viewer,
    /// signed in or not: the cell is then an `<a href>` instead of a "select" button. Nil for
    /// none. Anything but a path on this site is dropped, with a warning in the log.
    func linkForRow(at indexPath: TableIndexPath) -> String?
    /// The row to select instead, or nil to veto (`willSelectRowAt`).
    func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath?
    /// The row was selected (`didSelectRowAt`).
    /// - Throws: whatever kept the selection from taking effect; the selection then changed nothing.
    func didSelectRow(at indexPath: TableIndexPath) throws
    /// The row to deselect instead, or nil to veto (`willDeselectRowAt`).
    func willDeselectRow(at indexPath: TableIndexPath) -> TableIndexPath?
    /// The row was deselected (`didDeselectRowAt`).
    /// - Throws: whatever kept the deselection from taking effect; it then changed nothing.
    func didDeselectRow(at indexPath: TableIndexPath) throws
    /// The editing control of an editable row (`editingStyleForRowAt`).
    func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle
    /// The delete button's title (`titleForDeleteConfirmationButtonForRowAt`).
    func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String?
    /// The row's named edit/swipe actions (`trailingSwipeActionsConfigurationForRowAt`).
    func actionsForRow(at indexPath: TableIndexPath) -> [RowAction]
    /// Performs one of the row's actions (`actionsForRow`), the handler of a `UIContextualAction`,
    /// with the fields submitted with it (a new title for "Rename", say; empty for an action that
    /// asks for no input).
    /// - Throws: whatever kept the action from taking effect; the action then changed nothing.
    func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws
    /// Where a moved row may land (`targetIndexPathForMoveFromRowAt:toProposedIndexPath:`).
    func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath
    /// Hands the table's narrow context to the delegate tree when the table is made over it (or
    /// its root is replaced): a cascading delegate stores it and prepares its children, so that a
    /// row can report its own changes. Default: does nothing, for a root that never reports any.
    func prepare(table: any TableContext)
}
