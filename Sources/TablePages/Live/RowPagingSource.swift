import TableKit

/// A root delegate that serves a section's rows page by page from outside the live table, so that
/// `GET /pages/{page}/sections/{section}?after={row}&limit=N` reaches rows the table does not hold
/// (a ``/TableKit/TableWindowDataSource`` holds only the first rows of each section).
///
///     final class Orders: ListDataSource<Order>, RowPagingSource {
///         func root(ofRowsIn section: SectionID, after row: RowID?, limit: Int) throws -> (any TableRoot)? {
///             let page = try store.orders(after: row.map(\.rawValue), limit: limit)
///             return OrderPage(page, remaining: try store.count(after: page.last))
///         }
///     }
///
/// Implementation requirements: return a delegate tree whose section with the same identifier
/// holds the rows after `row` in the section's order, at most `limit` of them; the page's host
/// renders it in a table of its own with the page's cell kinds. The rows that follow it are counted
/// as rows after its window (``/TableKit/TableWindowDataSource``) so the render ends with a correct
/// `next` link. Return nil to let the live table answer. Throw
/// ``/TableKit/TableError/unknownSection(_:)`` for a section that does not exist and
/// ``/TableKit/TableError/unknownRow(_:)`` for an `after` that names no row of it. Called inside the
/// page's host, like every delegate method.
public protocol RowPagingSource: AnyObject {
    /// A delegate tree of the rows of `section` after `row` (from the first row when nil), at most `limit`.
    func root(ofRowsIn section: SectionID, after row: RowID?, limit: Int) throws -> (any TableRoot)?
}
