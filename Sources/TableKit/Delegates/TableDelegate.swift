/// The delegate half of a table, as `UITableViewDelegate`: heights, header and footer views,
/// selection, editing styles and actions, moves and display.
///
/// Every requirement has a default (see `TableDelegate+Defaults.swift`): automatic row height,
/// header and footer height 0, no views, `shouldHighlight` true, `willSelect`/`willDeselect`
/// return the passed path, editing style none, indentation 0. Estimated heights default to nil
/// so a fallback chain can tell that nothing was estimated.
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
    /// The row height (`heightForRowAt`). Default `.automatic`.
    func heightForRow(at indexPath: TableIndexPath) -> TableHeight
    /// The estimated row height used for rows not loaded yet (`estimatedHeightForRowAt`). Default nil.
    func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight?
    /// The row's indentation level (`indentationLevelForRowAt`). Default 0.
    func indentationLevelForRow(at indexPath: TableIndexPath) -> Int
    /// The header height (`heightForHeaderInSection`). Default `.points(0)`, meaning "not given".
    func heightForHeader(inSection section: Int) -> TableHeight
    /// The footer height (`heightForFooterInSection`). Default `.points(0)`, meaning "not given".
    func heightForFooter(inSection section: Int) -> TableHeight
    /// The estimated header height (`estimatedHeightForHeaderInSection`). Default nil.
    func estimatedHeightForHeader(inSection section: Int) -> TableHeight?
    /// The estimated footer height (`estimatedHeightForFooterInSection`). Default nil.
    func estimatedHeightForFooter(inSection section: Int) -> TableHeight?
    /// A cell-like header view (`viewForHeaderInSection`); replaces the title. Default nil.
    func viewForHeader(inSection section: Int) -> TableCell?
    /// A cell-like footer view (`viewForFooterInSection`); replaces the title. Default nil.
    func viewForFooter(inSection section: Int) -> TableCell?
    /// Whether the row reacts to selection (`shouldHighlightRowAt`). Default true.
    func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool
    /// The row to select instead, or nil to veto (`willSelectRowAt`). Default `indexPath`.
    func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath?
    /// The row was selected (`didSelectRowAt`). Default: does nothing.
    /// - Throws: whatever kept the selection from taking effect; the selection then changed nothing.
    func didSelectRow(at indexPath: TableIndexPath) throws
    /// The row to deselect instead, or nil to veto (`willDeselectRowAt`). Default `indexPath`.
    func willDeselectRow(at indexPath: TableIndexPath) -> TableIndexPath?
    /// The row was deselected (`didDeselectRowAt`). Default: does nothing.
    /// - Throws: whatever kept the deselection from taking effect; it then changed nothing.
    func didDeselectRow(at indexPath: TableIndexPath) throws
    /// The editing control of an editable row (`editingStyleForRowAt`). Default `.none`.
    func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle
    /// The delete button's title (`titleForDeleteConfirmationButtonForRowAt`). Default nil ("Delete").
    func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String?
    /// The row's named edit/swipe actions (`trailingSwipeActionsConfigurationForRowAt`). Default none.
    func actionsForRow(at indexPath: TableIndexPath) -> [RowAction]
    /// Performs one of the row's actions (`actionsForRow`), the handler of a `UIContextualAction`,
    /// with the fields submitted with it (a new title for "Rename", say; empty for an action that
    /// asks for no input). Default: does nothing.
    /// - Throws: whatever kept the action from taking effect; the action then changed nothing.
    func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws
    /// Where a moved row may land (`targetIndexPathForMoveFromRowAt:toProposedIndexPath:`).
    /// Default `proposed`.
    func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath
    /// The row is about to be shown (`willDisplay:forRowAt:`). Default: does nothing.
    func willDisplayRow(at indexPath: TableIndexPath)
    /// The row is no longer shown (`didEndDisplaying:forRowAt:`). Default: does nothing.
    func didEndDisplayingRow(at indexPath: TableIndexPath)
    /// The header is about to be shown (`willDisplayHeaderView`). Default: does nothing.
    func willDisplayHeader(inSection section: Int)
    /// The header is no longer shown (`didEndDisplayingHeaderView`). Default: does nothing.
    func didEndDisplayingHeader(inSection section: Int)
    /// The footer is about to be shown (`willDisplayFooterView`). Default: does nothing.
    func willDisplayFooter(inSection section: Int)
    /// The footer is no longer shown (`didEndDisplayingFooterView`). Default: does nothing.
    func didEndDisplayingFooter(inSection section: Int)
}
