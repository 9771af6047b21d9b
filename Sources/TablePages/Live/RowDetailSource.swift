import TableKit

/// A root delegate that shows a row on its own URL (`GET /pages/{page}/rows/{row}`) from outside
/// the live table: the live table may hold a shortened form of the row (a database page cuts
/// long values) or not hold it at all (a row beyond a ``/TableKit/TableWindowDataSource``'s window).
///
/// Implementation requirements: return a delegate tree holding the row `row`, or nil to let the
/// live table answer; the page's host shows it in a table of its own with the page's cell kinds.
/// Throw ``/TableKit/TableError/unknownRow(_:)`` for a row that does not exist. Called inside the
/// page's host, like every delegate method.
public protocol RowDetailSource: AnyObject {
    /// A delegate tree that holds the row `row`, shown in full.
    func root(ofRow row: RowID) throws -> (any TableRoot)?
}
