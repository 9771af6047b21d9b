import TableKit

/// A root delegate whose variant's rows can be downloaded whole: `GET /pages/{page}.csv` and
/// `GET /pages/{page}.ndjson` answer with every row the variant selects, streamed as they are read.
///
///     final class Orders: ListDataSource<Order>, RowExportSource {
///         func exporter(as format: ExportFormat) throws -> (any RowExporter)? {
///             OrderExporter(store: store, format: format)
///         }
///     }
///
/// Implementation requirements: return an exporter that reads the rows itself (it runs outside
/// the page's host, on a background thread, while the page goes on), or nil when the page cannot
/// export in that format (a 404). Called inside the page's host, like every delegate method.
public protocol RowExportSource: AnyObject {
    /// An exporter of the variant's rows in `format`, or nil when there is none.
    func exporter(as format: ExportFormat) throws -> (any RowExporter)?
}

/// Reads an export's rows and encodes them, one chunk at a time.
///
/// Implementation requirements: ``nextChunk()`` may block on a database (it is called on a
/// background thread, never on Swift's cooperative pool); one producer calls it at a time, and
/// stops calling it once it returns nil or throws.
public protocol RowExporter: Sendable {
    /// The next bytes of the body (the first call includes any header), or nil after the last.
    func nextChunk() throws -> [UInt8]?
}

/// The formats of a page's rows as a download.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// RFC 4180 comma-separated values with a header row.
    case csv
    /// Newline-delimited JSON: one object per row.
    case ndjson

    /// The `Content-Type` of the download.
    public var contentType: String {
        switch self {
        case .csv: "text/csv; charset=utf-8"
        case .ndjson: "application/x-ndjson"
        }
    }

    /// The route that answers it (``/TableKit/PageContract``).
    var pattern: String {
        switch self {
        case .csv: PageContract.csvExportPattern
        case .ndjson: PageContract.ndjsonExportPattern
        }
    }
}
