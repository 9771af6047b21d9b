/// The result of selecting a row through ``TableAdapter/selectRow(_:)``.
public enum SelectionOutcome: Hashable, Sendable {
    /// The row at this index path was selected; it differs from the requested row when
    /// `willSelectRow(at:)` redirected the selection.
    case selected(TableIndexPath)
    /// `shouldHighlightRow(at:)` returned false or `willSelectRow(at:)` returned nil.
    case vetoed
    /// No row has the requested identifier.
    case unknownRow
}
