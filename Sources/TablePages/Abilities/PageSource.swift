import TableKit

/// A page's root that declares what its page can do besides showing its table: page its rows away
/// from the live table, show a row in full on its own URL, and download its rows. (Reading the data
/// again when it changes is ``ObservedSource``'s, over an ``ObservableStore``.) Every ability answers "none"
/// unless implemented (`PageSource+Defaults.swift`), the way ``/TableKit/TableDataSource``'s
/// methods do; the page's host asks each one directly.
///
///     final class Orders: ListDataSource<Order>, PageSource {
///         var rowPager: (any RowPager)? { OrderPager(store: store) }
///         func exporter(as format: ExportFormat) throws -> (any RowExporter)? {
///             OrderExporter(store: store, format: format)
///         }
///     }
///
/// A page's factory returns a root that is a ``PageSource`` (or a plain
/// ``/TableKit/TableRoot``, which has none of these abilities). The abilities belong to the root
/// alone: a delegate below it that is a ``PageSource`` stops the page's host with
/// ``PageSourceMisplaced``, never silently ignored. A subclass of a root class that is a
/// ``PageSource`` overrides the abilities it adds only when that class implements them
/// (as ``ObservedSource`` does every one): Swift calls a protocol default, not a subclass's method.
public protocol PageSource: TableRoot {
    /// The reader of the root's later pages (`GET /pages/{page}/sections/{section}?after=`), as of
    /// its current data, which a request reads and renders on any database lane, away from the
    /// host; a ``PositionalRowPager`` also serves `?_at=N`. The host asks for it when the root is
    /// made and again after each re-read, action or applied change, so a pager may carry what the
    /// root knew then (a section's row count). Default: nil, the live table's rows are paged.
    var rowPager: (any RowPager)? { get }
    /// A delegate tree that holds the row `row` shown in full (`GET /pages/{page}/rows/{row}`),
    /// which the live table may shorten or not hold (a row past a window), rendered in a table of
    /// its own with the page's cell kinds; throw ``/TableKit/TableError/unknownRow(_:)`` for a row
    /// that does not exist. Default: nil, the live table shows the row.
    func root(ofRow row: RowID) throws -> (any TableRoot)?
    /// An exporter of the variant's rows in `format` (`GET /pages/{page}.csv`, `.ndjson`), which
    /// reads the rows itself on a background thread while the page goes on. Default: nil, the page
    /// has no download (404).
    func exporter(as format: ExportFormat) throws -> (any RowExporter)?
}
