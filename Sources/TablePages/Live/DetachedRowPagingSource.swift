import TableKit

/// A ``RowPagingSource`` whose pages are read away from its page's host: the host only asks it
/// for a ``RowPageReader`` (a few values, no database work), and the reading and rendering run on
/// the least busy database lane, so that pages of one variant are read side by side instead of
/// one after another on the host's lane.
///
/// Why: every request for a later page of a variant went through that variant's one host, whose
/// lane is one serial queue; a million-row table paged by many readers used one core for all of
/// them (`Benchmarks/datasette.sh`, case (a)), while a page read does not touch the live table.
///
///     final class Orders: ListDataSource<Order>, DetachedRowPagingSource {
///         func pageReader(ofRowsIn section: SectionID, after row: RowID?, limit: Int) throws -> (any RowPageReader)? {
///             OrderPageReader(store: store, after: row, limit: limit)  // a Sendable struct
///         }
///     }
///
/// Implementation requirements: return a reader that needs nothing of the live root (it runs on
/// another thread while the host goes on), or nil to let ``RowPagingSource/root(ofRowsIn:after:limit:)``
/// answer on the host. Called inside the page's host, like every delegate method; the reader's
/// ``RowPageReader/root()`` follows the requirements of ``RowPagingSource`` for what it returns and throws.
public protocol DetachedRowPagingSource: RowPagingSource {
    /// A reader of the rows of `section` after `row` (from the first row when nil), at most `limit`.
    func pageReader(ofRowsIn section: SectionID, after row: RowID?, limit: Int) throws -> (any RowPageReader)?
}

/// Reads one page of a section's rows, on a database lane (it may block on a database).
public protocol RowPageReader: Sendable {
    /// A delegate tree of the page's rows, made where it is rendered and used nowhere else.
    func root() throws -> any TableRoot
}
