// The one place the delegate defaults are stated, in code and in words (see
// TableDataSource+Defaults.swift for how cascading delegates reach them).
extension TableDelegate {
    /// Default: `.automatic`.
    public func heightForRow(at indexPath: TableIndexPath) -> TableHeight { .automatic }
    /// Default: nil, not estimated, so a fallback chain can tell that nothing was estimated.
    public func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? { nil }
    /// Default: 0, not indented.
    public func indentationLevelForRow(at indexPath: TableIndexPath) -> Int { 0 }
    /// Default: `.points(0)`, meaning "not given".
    public func heightForHeader(inSection section: Int) -> TableHeight { .points(0) }
    /// Default: `.points(0)`, meaning "not given".
    public func heightForFooter(inSection section: Int) -> TableHeight { .points(0) }
    /// Default: nil, not estimated.
    public func estimatedHeightForHeader(inSection section: Int) -> TableHeight? { nil }
    /// Default: nil, not estimated.
    public func estimatedHeightForFooter(inSection section: Int) -> TableHeight? { nil }
    /// Default: nil, no header view (the title is shown).
    public func viewForHeader(inSection section: Int) -> TableCell? { nil }
    /// Default: nil, no footer view (the title is shown).
    public func viewForFooter(inSection section: Int) -> TableCell? { nil }
    /// Default: true, selectable.
    public func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { true }
    /// Default: nil, no link.
    public func linkForRow(at indexPath: TableIndexPath) -> String? { nil }
    /// Default: `indexPath`, the row asked for.
    public func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath? { indexPath }
    /// Default: does nothing.
    public func didSelectRow(at indexPath: TableIndexPath) throws {}
    /// Default: `indexPath`, the row asked for.
    public func willDeselectRow(at indexPath: TableIndexPath) -> TableIndexPath? { indexPath }
    /// Default: does nothing.
    public func didDeselectRow(at indexPath: TableIndexPath) throws {}
    /// Default: `.none`, no editing control.
    public func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .none }
    /// Default: nil, the standard title ("Delete").
    public func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String? { nil }
    /// Default: no actions.
    public func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { [] }
    /// Default: does nothing.
    public func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {}
    /// Default: `proposed`.
    public func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath { proposed }
    /// Default: does nothing.
    public func prepare(table: any TableContext) {}
}
