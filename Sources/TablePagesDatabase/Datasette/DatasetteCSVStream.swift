import Logging
import MicroHTTP
import TableStore

/// Datasette's `_stream=1` on a table's CSV: every row the query picks, page after page by its
/// `_next` token, written while it is sent, with the header of the first page, as Datasette 0.65
/// streams it. One page (at most ``DatasetteTableRequest/maxSize`` rows) is held at a time, read on
/// a dispatch thread; the body's buffer holds back the reads for a slow client.
///
/// Bounded by ``maxBytes``: the line that would take the body past it is replaced by Datasette's
/// words, `CSV contains more than {maxBytes} bytes`, and the body ends there, complete, as
/// Datasette ends it (Datasette counts characters; this counts UTF-8 bytes). A read that fails
/// after the first page is logged and ends the transfer without its last chunk, so the client sees
/// it truncated.
struct DatasetteCSVStream: Sendable {
    /// Reads the first page; the following ones are read with its `_next` token.
    let reader: DatasetteTableReader
    let blobs: DatasetteCSV.BlobLinks
    let maxBytes: Int
    /// Whether the first line is the header (Datasette's `_header=off` leaves it out).
    let withHeader: Bool

    /// A reader of the same query that reads whole pages (the rows sent are the same whatever the
    /// page size: the keyset orders them fully).
    init(reader: DatasetteTableReader, blobs: DatasetteCSV.BlobLinks, maxBytes: Int, withHeader: Bool) {
        var request = reader.request
        if request.size > 0 { request.size = DatasetteTableRequest.maxSize }
        self.reader = DatasetteTableReader(database: reader.database, table: reader.table, request: request, labels: reader.labels, visitorSQL: reader.visitorSQL)
        self.blobs = blobs
        self.maxBytes = maxBytes
        self.withHeader = withHeader
    }

    /// Reads the first page (so a failing read is still a status for the caller), then streams the
    /// rest into the returned body from a task of its own.
    func start(logger: Logger, read: @escaping @Sendable (DatasetteTableReader) async throws -> DatasetteTableReader.Page) async throws -> BodyStream {
        let first = try await read(reader)
        let body = BodyStream()
        let (reader, blobs, maxBytes, withHeader, name) = (reader, blobs, maxBytes, withHeader, reader.table.schema.name)
        Task.detached {
            var page = first
            var written = 0
            // Datasette writes the header of the first page's columns, then every page's lines.
            var lines = withHeader ? [DatasetteCSV.header(columns: page.columns, labels: page.labels)] : []
            do {
                while true {
                    for (index, row) in page.rows.enumerated() {
                        lines.append(DatasetteCSV.line(columns: page.columns, row: row, address: index < page.addresses.count ? page.addresses[index] : nil, labels: page.labels, blobs: blobs))
                    }
                    var chunk = ""
                    var over = false
                    for line in lines {
                        written += line.utf8.count
                        if written > maxBytes { over = true; break }
                        chunk += line
                    }
                    if over { chunk += "CSV contains more than \(maxBytes) bytes" }
                    guard await body.write(Array(chunk.utf8)) else { return }
                    if over {
                        logger.notice("the CSV stream of \(name) stopped at \(maxBytes) bytes (--datasette-csv-max-bytes)")
                        body.finish()
                        return
                    }
                    lines = []
                    guard let next = page.next else { break }
                    var following = reader.request
                    following.next = next
                    page = try await read(DatasetteTableReader(database: reader.database, table: reader.table, request: following, labels: reader.labels, visitorSQL: reader.visitorSQL))
                }
                body.finish()
            } catch {
                logger.warning("the CSV stream of \(name) stopped: \(error)")
                body.abort()
            }
        }
        return body
    }
}
