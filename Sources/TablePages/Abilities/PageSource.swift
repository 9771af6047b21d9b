import TableKit

/// A page's root that declares what its page can do besides showing its table: read its data
/// again when it changes (and name the state by its version), page its rows away from the live
/// table, show a row in full on its own URL, and download its rows. Every ability answers "none"
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
    /// Where changes to the data the root reads are announced; the host observes them before
    /// its first read, so no change after that read is missed. Default: none.
    var changeFeeds: [ChangeFeed] { get }
    /// Whether the host reads the data (``readFromSource()``) before the first render too and
    /// numbers the table's states by the versions it returns. Default: false, the root's
    /// factory read what it shows, and the host numbers its states itself.
    var readsVersionedSnapshots: Bool { get }
    /// Reads the data again and shows it, after a change was announced; returns the version of
    /// exactly what it read, or nil when the data has no version (or state of this process shows
    /// besides it). The host then compares the table with what it last sent and publishes the
    /// rows that differ: do not report updates from here. Default: reads nothing and returns nil,
    /// for a root that reads shared data as it answers (comparing its answers is all there is to do).
    func readFromSource() throws -> Int?
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
