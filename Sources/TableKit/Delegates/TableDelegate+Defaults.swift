extension TableDelegate {
    /// Automatic.
    public func heightForRow(at indexPath: TableIndexPath) -> TableHeight { .automatic }
    /// Not estimated.
    public func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? { nil }
    /// Not indented.
    public func indentationLevelForRow(at indexPath: TableIndexPath) -> Int { 0 }
    /// Zero ("not given").
    public func heightForHeader(inSection section: Int) -> TableHeight { .points(0) }
    /// Zero ("not given").
    public func heightForFooter(inSection section: Int) -> TableHeight { .points(0) }
    /// Not estimated.
    public func estimatedHeightForHeader(inSection section: Int) -> TableHeight? { nil }
    /// Not estimated.
    public func estimatedHeightForFooter(inSection section: Int) -> TableHeight? { nil }
    /// No header view.
    public func viewForHeader(inSection section: Int) -> TableCell? { nil }
    /// No footer view.
    public func viewForFooter(inSection section: Int) -> TableCell? { nil }
    /// Highlightable.
    public func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { true }
    /// Selects the passed row.
    public func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath? { indexPath }
    /// Does nothing.
    public func didSelectRow(at indexPath: TableIndexPath) throws {}
    /// Deselects the passed row.
    public func willDeselectRow(at indexPath: TableIndexPath) -> TableIndexPath? { indexPath }
    /// Does nothing.
    public func didDeselectRow(at indexPath: TableIndexPath) throws {}
    /// No editing control.
    public func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .none }
    /// The standard title.
    public func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String? { nil }
    /// No actions.
    public func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { [] }
    /// Does nothing.
    public func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {}
    /// The proposed path.
    public func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath { proposed }
    /// Does nothing.
    public func willDisplayRow(at indexPath: TableIndexPath) {}
    /// Does nothing.
    public func didEndDisplayingRow(at indexPath: TableIndexPath) {}
    /// Does nothing.
    public func willDisplayHeader(inSection section: Int) {}
    /// Does nothing.
    public func didEndDisplayingHeader(inSection section: Int) {}
    /// Does nothing.
    public func willDisplayFooter(inSection section: Int) {}
    /// Does nothing.
    public func didEndDisplayingFooter(inSection section: Int) {}
}
