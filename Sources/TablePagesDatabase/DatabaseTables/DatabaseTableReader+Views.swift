import TableStore
import TableKit

/// A view's pages. A view has no key to page by, so its rows are paged by position: a row's id is
/// its position in the variant's order (0 for the first row), and the page after a row is read
/// with `LIMIT n OFFSET position + 1`. An offset walks the rows before it, so a page deep in a
/// large view costs what reading the view up to it costs (SQLite computes a view as it is read);
/// a row's id names a different row once rows are inserted or deleted before it.
extension DatabaseTableReader {
    /// The rows of a view's `section` after the row `after` (from the first when nil).
    /// - Throws: ``/TableKit/TableError/unknownRow(_:)`` when `after` is no position.
    func viewPage(of section: SectionID, after: RowID?, limit: Int, total: Int?) throws -> DatabaseSection {
        let groupValue = try self.groupValue(of: section)
        var start = 0
        if let after {
            guard let position = Self.viewPosition(after) else { throw TableError.unknownRow(after) }
            start = position + 1
        }
        return try readingSearch { db in
            try self.section(section, groupValue: groupValue, after: Position(key: [], offset: start), limit: limit, total: total, in: db)
        }
    }

    /// How many rows follow the `read` rows read from `offset`: none when fewer than `limit` were
    /// read; else from the total when known, or counted up to ``countBound``.
    func viewRowsAfter(_ offset: Int, read: Int, limit: Int, total: Int?, in db: any SQLSession) throws -> Int {
        guard read == limit else { return 0 }
        if let total { return max(0, total - offset - read) }
        let clause = filterClause()
        let bigint = schema.dialect.placeholder(type: "bigint")
        let sql = "SELECT count(*) FROM (SELECT 1 FROM \(schema.quotedName)\(clause.sql)\(orderBy()) LIMIT \(Self.countBound) OFFSET \(bigint)) AS counted"
        return try db.count(sql, clause.arguments + [.integer(offset + read)])
    }

    /// The view's row at position `row` of the variant's order, every value as on the row's own URL.
    /// - Throws: ``/TableKit/TableError/unknownRow(_:)`` when there is no such position.
    func viewRecord(_ row: RowID) throws -> DatabaseSection.Row {
        guard let position = Self.viewPosition(row) else { throw TableError.unknownRow(row) }
        return try readingSearch { db in
            let clause = filterClause()
            let bigint = schema.dialect.placeholder(type: "bigint")
            let sql = "SELECT \(selectedColumns) FROM \(schema.quotedName)\(clause.sql)\(orderBy()) LIMIT 1 OFFSET \(bigint)"
            guard let found = try db.row(sql, clause.arguments + [.integer(position)]) else {
                throw TableError.unknownRow(row)
            }
            return makeRow(found.values, extent: .row, id: row)
        }
    }

    /// The position a view's row id names: up to 12 decimal digits.
    static func viewPosition(_ row: RowID) -> Int? {
        let text = row.rawValue
        guard (1...12).contains(text.utf8.count), text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }
}
