import TableKit

/// A ``RowPagingSource`` whose later pages are read away from its page's host: it hands its host
/// a ``RowPager``, a Sendable reader of pages as of the root's current data, and a request for a
/// page goes straight to the least busy database lane, which reads and renders it there. Pages of
/// one variant are then read side by side, and a request does not wait for the host at all.
///
/// Why: every request for a later page of a variant went through that variant's one host, whose
/// lane is one serial queue; a million-row table paged by many readers used one core for all of
/// them and two thread hand-offs per page (`Benchmarks/datasette.sh`, case (a)), while reading a
/// page never touches the live table.
///
///     final class Orders: ListDataSource<Order>, DetachedRowPagingSource {
///         var rowPager: any RowPager { OrderPager(store: store) }  // a Sendable struct
///     }
///
/// Implementation requirements: the pager must need nothing of the live root (it runs on other
/// threads while the host goes on). The host asks for ``rowPager`` when the root is made and again
/// after each re-read, action or applied change, so a pager may carry what the root knew then
/// (a section's row count, say). ``RowPagingSource/root(ofRowsIn:after:limit:)`` is not asked.
public protocol DetachedRowPagingSource: RowPagingSource {
    /// The reader of the root's later pages, as of its current data.
    var rowPager: any RowPager { get }
}

/// Reads pages of a section's rows on a database lane (it may block on a database).
public protocol RowPager: Sendable {
    /// A delegate tree of the rows of `section` after `row` (from the first row when nil), at most
    /// `limit`, made where it is rendered and used nowhere else; what it returns and throws is as
    /// for ``RowPagingSource/root(ofRowsIn:after:limit:)``, except that it cannot decline.
    func root(ofRowsIn section: SectionID, after row: RowID?, limit: Int) throws -> any TableRoot
}
