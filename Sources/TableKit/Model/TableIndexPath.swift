/// The position of a row inside one render of a table: a section index and a row index.
///
/// Index paths are only meaningful for the render they were computed in. To address a row
/// across time (in DOM ids, URLs and patches) use its ``RowID``.
///
/// It is not called `IndexPath` so that a file importing both Foundation and TableKit can name
/// either type without qualifying it.
///
///     let path = TableIndexPath(section: 0, row: 3)
public struct TableIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The index of the section that contains the row.
    public var section: Int
    /// The index of the row inside its section.
    public var row: Int

    /// Creates an index path addressing `row` in `section`.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Orders index paths by section, then by row, as UIKit does.
    public static func < (lhs: TableIndexPath, rhs: TableIndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[section, row]`, the way `NSIndexPath` prints.
    public var description: String { "[\(section), \(row)]" }
}
