import TableKit

/// A root delegate that shows a row on its own URL (`GET /pages/{page}/rows/{row}`) from outside
/// the live table: the live table may hold a shortened form of the row (a database page cuts
/// long values) or not hold it at all (a row beyond a ``/TableKit/TableWindowDataSource``'s window).
///
/// Implementation requirements: return a table holding the row `row`, rendered with the same
/// cell kinds as the live table, or nil to let the live table answer. Throw
/// ``/TableKit/TableError/unknownRow(_:)`` for a row that does not exist. Called inside the page's
/// host, like every delegate method.
public protocol RowDetailSource: AnyObject {
    /// A table that holds the row `row`, shown in full.
    func table(ofRow row: RowID) throws -> TableView?
}
