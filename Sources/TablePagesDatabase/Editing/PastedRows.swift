import Foundation
import MicroHTTP
import TableStore

/// Rows pasted into an insert form (``DelimitedText``) as the values of a table's columns.
///
/// A first line whose every cell names a column of the table (as SQLite matches names: ignoring
/// ASCII case) says which column each cell holds; otherwise the cells fill the table's columns in
/// order, and a line may be shorter than the table (the rest get their defaults). An empty cell is
/// left out, so the column gets its default (NULL when it has none); the text `NULL` is NULL. A
/// problem names the line and the column: `line 3, column “price”: …`.
///
///     try PastedRows.values("name\tprice\nTea\t2.5", columns: columns, maxRows: 10_000)  // [["name": .text("Tea"), "price": .real(2.5)]]
enum PastedRows {
    /// The rows of `text` for `columns`.
    /// - Throws: 400 for no rows, more than `maxRows`, a line with more cells than columns, or a
    ///   NOT NULL column without a default left empty.
    static func values(_ text: String, columns: [EditableColumn], maxRows: Int) throws(HTTPError) -> [[String: SQLValue]] {
        var lines = DelimitedText.rows(text)
        guard !lines.isEmpty else { throw HTTPError(400, "Nothing was pasted: copy rows from a spreadsheet (or CSV text) and paste them in the box.") }
        let byName = Dictionary(columns.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var order = columns
        var firstLine = 1
        let header = lines[0].map { byName[$0.trimmingCharacters(in: .whitespaces).lowercased()] }
        if header.allSatisfy({ $0 != nil }), Set(header.compactMap { $0?.name }).count == header.count {
            order = header.compactMap { $0 }
            lines.removeFirst()
            firstLine = 2
        }
        guard !lines.isEmpty else { throw HTTPError(400, "Only a line of column names was pasted: paste the rows under it too.") }
        guard lines.count <= maxRows else {
            throw HTTPError(400, "\(lines.count) rows were pasted; at most \(maxRows) are added at once. Paste them in parts.")
        }
        var rows: [[String: SQLValue]] = []
        rows.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated() {
            let number = index + firstLine
            guard line.count <= order.count else {
                throw HTTPError(400, "Line \(number) has \(line.count) cells; the table has \(order.count) columns\(firstLine == 2 ? " named in the first line" : "").")
            }
            var row: [String: SQLValue] = [:]
            for (cell, column) in zip(line, order) where !cell.isEmpty {
                row[column.name] = cell == "NULL" ? .null : EditInput.value(cell, for: column)
            }
            for column in columns where column.isNotNull && !column.fillsItself && (row[column.name] == nil || row[column.name] == .null) {
                throw HTTPError(400, "Line \(number), column \u{201C}\(column.name)\u{201D}: the column is NOT NULL and has no default; give it a value.", headers: [EditInput.fieldHeader: EditInput.pasteField])
            }
            rows.append(row)
        }
        return rows
    }
}
