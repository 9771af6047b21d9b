import TableKit

/// Reads pages of a section's rows on a database lane (it may block on a database), for a
/// ``PageSource``'s ``PageSource/rowPager``: a request for a later page goes straight to the least
/// busy lane, which reads and renders it there, so pages of one variant are read side by side and
/// a request does not wait for the page's host.
///
/// Why: every request for a later page of a variant went through that variant's one host, whose
/// lane is one serial queue; a million-row table paged by many readers used one core for all of
/// them and two thread hand-offs per page (`Benchmarks/datasette.sh`, case (a)), while reading a
/// page never touches the live table.
///
/// Implementation requirements: the pager must need nothing of the live root (it runs on other
/// threads while the host goes on).
public protocol RowPager: Sendable {
    /// A delegate tree of the rows of `section` after `row` (from the first row when nil), at most
    /// `limit`, made where it is rendered and used nowhere else. Its section with the same
    /// identifier holds the rows; the rows that follow them are counted as rows after its window
    /// (``/TableKit/TableDataSource/numberOfRowsAfterWindow(inSection:)``), so the render ends with a
    /// correct `next` link. Throw ``/TableKit/TableError/unknownSection(_:)`` for a section that does
    /// not exist and ``/TableKit/TableError/unknownRow(_:)`` for an `after` that names no row of it.
    func root(ofRowsIn section: SectionID, after row: RowID?, limit: Int) throws -> any TableRoot
    /// The same pager when it also reads pages from a position (``PositionalRowPager``). Default:
    /// nil; a ``PositionalRowPager`` answers itself.
    var positional: (any PositionalRowPager)? { get }
}

extension RowPager {
    /// Default: nil, not positional.
    public var positional: (any PositionalRowPager)? { nil }
}
