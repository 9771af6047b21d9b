import TableKit

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
