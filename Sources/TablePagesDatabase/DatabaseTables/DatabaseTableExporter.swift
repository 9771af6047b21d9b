import TableStore
import Synchronization
import TableKit
import TablePages

/// Reads every row of a variant for a CSV or NDJSON download, ``chunkRows`` rows per read, each
/// read in a transaction of its own, by keyset from the last row sent: in the page's order
/// (the group's values first, ascending with NULL first, when grouped; then the sort, then the key),
/// with the page's filters and search, values whole.
///
/// Short transactions rather than one for the whole download: a slow client may take minutes,
/// and one read transaction held that long would keep a WAL database from checkpointing (its
/// log growing with every write) and block writers of a database in another journal mode. The
/// price is that an export of a table being written is not one snapshot: a row is never sent
/// twice or skipped because of the paging, but rows inserted, deleted or re-sorted behind or ahead
/// of the reading point show up or not as they fall. Each read is bounded by the store's query
/// time limit like any other.
final class DatabaseTableExporter: RowExporter {
    /// Rows per read (and per chunk of the body).
    static let chunkRows = 1000

    private struct Progress {
        var headerWritten = false
        /// The group whose rows are being read; unset until the first group is found.
        var group: SQLValue??
        var after: DatabaseTableReader.Position?
        /// A view's rows read so far: a view has no key, so it is read by offset.
        var offset = 0
        var isDone = false
    }

    private let reader: DatabaseTableReader
    private let format: ExportFormat
    private let progress = Mutex(Progress())

    init(reader: DatabaseTableReader, format: ExportFormat) {
        self.reader = reader
        self.format = format
    }

    func nextChunk() throws -> [UInt8]? {
        try progress.withLock { progress in
            guard !progress.isDone else { return nil }
            var out = OutputBuffer(capacity: 64 * 1024)
            if !progress.headerWritten, format == .csv {
                DatabaseExportEncoding.appendCSVHeader(reader.schema.columns, to: &out)
            }
            progress.headerWritten = true
            try reader.database.snapshot { db in
                var rowsLeft = Self.chunkRows
                while rowsLeft > 0, !progress.isDone {
                    rowsLeft -= try readRows(db, limit: rowsLeft, progress: &progress, into: &out)
                }
            }
            return out.count == 0 && progress.isDone ? nil : out.bytes
        }
    }

    /// Reads up to `limit` rows of the current group (or of the whole variant) into `out`, moving
    /// on to the next group, or to the end, when the group has no more; returns the rows read.
    private func readRows(_ db: any SQLSession, limit: Int, progress: inout Progress, into out: inout OutputBuffer) throws -> Int {
        var groupValue: SQLValue?
        if reader.query.group != nil {
            if progress.group == nil {
                progress.group = .some(try nextGroup(after: nil, in: db))
            }
            guard let current = progress.group ?? nil else {
                progress.isDone = true
                return 0
            }
            groupValue = current
        }
        let clause = reader.whereClause(groupValue: groupValue, after: progress.after)
        let sql = "SELECT \(reader.selectedColumns) FROM \(reader.schema.quotedName)\(clause.sql)\(reader.orderBy()) LIMIT \(limit)" + (reader.schema.isView ? " OFFSET \(progress.offset)" : "")
        let keyCount = reader.schema.key.count
        let sortIndex = reader.query.sort.flatMap { reader.schema.columns.firstIndex(of: $0) }.map { keyCount + $0 }
        var count = 0
        var last: [SQLValue] = []
        try db.forEachRow(sql, clause.arguments) { row in
            let columns = row[keyCount..<row.count]
            switch format {
            case .csv: DatabaseExportEncoding.appendCSVRow(columns, to: &out)
            case .ndjson: DatabaseExportEncoding.appendNDJSONRow(columns: reader.schema.columns, values: columns, to: &out)
            }
            count += 1
            if count == limit { last = row.values }
        }
        if count == limit {
            progress.after = DatabaseTableReader.Position(sortValue: sortIndex.map { last[$0] }, key: Array(last.prefix(keyCount)))
            progress.offset += count
        } else if let groupValue {
            progress.after = nil
            progress.group = .some(try nextGroup(after: groupValue, in: db))
        } else {
            progress.isDone = true
        }
        return count
    }

    /// The first group value after `value` (the first of all when nil) in ascending order, NULL
    /// first; nil when there is none. `.some(.null)` is the NULL group.
    private func nextGroup(after value: SQLValue?, in db: any SQLSession) throws -> SQLValue? {
        guard let group = reader.query.group else { return nil }
        let column = SQLIdentifier.quoted(group)
        var terms = reader.filterClause()
        if let value {
            let term = value.isNull ? SQLClause(sql: "\(column) IS NOT NULL", arguments: []) : SQLClause(sql: "\(column) > \(reader.schema.placeholder(for: group))", arguments: [value])
            terms = SQLClause(sql: terms.sql.isEmpty ? " WHERE " + term.sql : terms.sql + " AND " + term.sql, arguments: terms.arguments + term.arguments)
        }
        let sql = "SELECT \(reader.schema.selected(group)) FROM \(reader.schema.quotedName)\(terms.sql) ORDER BY \(reader.schema.ordered(group))\(reader.schema.nullOrder(of: group, descending: false)) LIMIT 1"
        return try db.row(sql, terms.arguments)?[0]
    }
}
