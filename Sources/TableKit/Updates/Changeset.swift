/// One committed batch of changes, expressed with identifiers so any client can apply it to the
/// document it has.
///
/// Apply operations in order: deletions come first, then sections and rows in their final order
/// (each placed after a neighbour that is already in place), then replacements, then the header
/// view and section counts.
///
///     table.onChange = { changeset in hub.publish(changeset) }
public struct Changeset: Hashable, Sendable {
    /// One change.
    public enum Operation: Hashable, Sendable {
        /// A new row in `section`, placed relative to a neighbour.
        case insertRow(RowID, section: SectionID, placement: RowPlacement)
        /// The row is gone.
        case deleteRow(RowID)
        /// The row's content or height changed; re-render it.
        case replaceRow(RowID)
        /// The row moved to `section`, placed relative to a neighbour; its content is unchanged.
        case moveRow(RowID, section: SectionID, placement: RowPlacement)
        /// A new section (with its rows), placed relative to a neighbour.
        case insertSection(SectionID, placement: SectionPlacement)
        /// The section and its rows are gone.
        case deleteSection(SectionID)
        /// The section changed; re-render it with its rows.
        case replaceSection(SectionID)
        /// The section moved, with its rows.
        case moveSection(SectionID, placement: SectionPlacement)
        /// The table's header view (``TableDataSource/headerViewForTable()``) changed or went; show it again.
        case replaceHeader
        /// The section's row count or its rows after the window (``TableDataSource/numberOfRowsAfterWindow(inSection:)``) changed:
        /// re-announce its count and its `next` link. Its rows are not sent; the rows that changed
        /// inside the table come as their own operations, before this one.
        case updateSectionCounts(SectionID)
        /// Too much changed to describe: fetch the whole table again.
        case reset
    }

    /// The operations, in the order to apply them.
    public var operations: [Operation]

    /// Creates a changeset.
    public init(_ operations: [Operation] = []) {
        self.operations = operations
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { operations.isEmpty }

    /// A changeset telling subscribers to refetch everything.
    public static let reset = Changeset([.reset])
}
