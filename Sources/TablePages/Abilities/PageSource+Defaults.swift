import TableKit

// The one place the page abilities' "none" answers are stated, in code and in their requirements' words.
extension PageSource {
    /// Default: nil, the live table's rows are paged.
    public var rowPager: (any RowPager)? { nil }
    /// Default: nil, the live table shows the row.
    public func root(ofRow row: RowID) throws -> (any TableRoot)? { nil }
    /// Default: nil, no download.
    public func exporter(as format: ExportFormat) throws -> (any RowExporter)? { nil }
}
