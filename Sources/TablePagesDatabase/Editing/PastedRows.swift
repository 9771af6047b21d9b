import Foundation
import MicroHTTP
import TableStore

/// Rows pasted into an insert form (``DelimitedText``) as the values of a table's columns, each
/// with the line of the pasted text it came from, so that a refusal can say which one it was.
///
/// A first line whose every cell names a column of the table (as SQLite matches names: ignoring
/// ASCII case) says which column each cell holds; otherwise the cells fill the table's columns in
/// order, and a line may be shorter than the table (the rest get their defaults). An empty cell is
/// left out, so the column gets its default (NULL when it has none); the text `NULL` is NULL. A
/// problem names the line and the column: `line 3 (“Tea”, “-2”), column “price”: …`.
///
///     try PastedRows.values("name\tprice\nTea\t2.5", columns: columns, maxRows: 10_000)  // [["name": .text("Tea"), "price": .real(2.5)]]
struct PastedRows {
    /// One pasted row, by the line it starts on.
    struct Line {
        /// The line of the pasted text it starts on, from 1 (the column names' line counts).
        let line: Int
        /// Its cells as pasted.
        let cells: [String]
        /// Its values by column; a column left out gets its default.
        let values: [String: SQLValue]

        /// The row's first cells as the person pasted them, quoted, to recognise it by in a message.
        var firstCells: String {
            let shown = cells.prefix(Self.namingCells).map { cell in
                "\u{201C}" + (cell.count > Self.namingCharacters ? String(cell.prefix(Self.namingCharacters)) + "\u{2026}" : cell) + "\u{201D}"
            }
            return (shown + (cells.count > Self.namingCells ? ["\u{2026}"] : [])).joined(separator: ", ")
        }

        /// How many of a row's first cells name it, and how much of each.
        static let namingCells = 3
        static let namingCharacters = 20
    }

    /// The rows, in the order pasted.
    let rows: [Line]

    /// The rows of `text` for `columns`.
    /// - Throws: 400 for no rows, more than `maxRows`, a line with more cells than columns, or a
    ///   NOT NULL column without a default left empty.
    init(_ text: String, columns: [EditableColumn], maxRows: Int) throws(HTTPError) {
        var lines = DelimitedText.numberedRows(text)
        guard !lines.isEmpty else { throw HTTPError(400, "Nothing was pasted: copy rows from a spreadsheet (or CSV text) and paste them in the box.") }
        let byName = Dictionary(columns.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var order = columns
        var named = false
        let header = lines[0].cells.map { byName[$0.trimmingCharacters(in: .whitespaces).lowercased()] }
        if header.allSatisfy({ $0 != nil }), Set(header.compactMap { $0?.name }).count == header.count {
            order = header.compactMap { $0 }
            lines.removeFirst()
            named = true
        }
        guard !lines.isEmpty else { throw HTTPError(400, "Only a line of column names was pasted: paste the rows under it too.") }
        guard lines.count <= maxRows else {
            throw HTTPError(400, "\(lines.count) rows were pasted; at most \(maxRows) are added at once. Paste them in parts.")
        }
        var rows: [Line] = []
        rows.reserveCapacity(lines.count)
        for (number, line) in lines {
            guard line.count <= order.count else {
                throw HTTPError(400, "Line \(number) has \(line.count) cells; the table has \(order.count) columns\(named ? " named in the first line" : "").")
            }
            var values: [String: SQLValue] = [:]
            for (cell, column) in zip(line, order) where !cell.isEmpty {
                values[column.name] = cell == "NULL" ? .null : EditInput.value(cell, for: column)
            }
            let row = Line(line: number, cells: line, values: values)
            for column in columns where column.isNotNull && !column.fillsItself && (values[column.name] == nil || values[column.name] == .null) {
                throw HTTPError(
                    400, Self.refusal(of: row, column: column.name, "the column is NOT NULL and has no default; give it a value", rows: lines.count),
                    headers: [EditInput.fieldHeader: EditInput.pasteField, Self.lineHeader: String(number)]
                )
            }
            rows.append(row)
        }
        self.rows = rows
    }

    /// The values of the rows of `text` for `columns` (``init(_:columns:maxRows:)``).
    static func values(_ text: String, columns: [EditableColumn], maxRows: Int) throws(HTTPError) -> [[String: SQLValue]] {
        try PastedRows(text, columns: columns, maxRows: maxRows).rows.map(\.values)
    }

    /// The header of a refusal that names the pasted line at fault, which the page script marks
    /// in the preview.
    static let lineHeader = "TablePages-Line"

    /// A refusal of `row`, about `column` when one is known, in a paste of `rows` rows: it names
    /// the line, its first cells and the column, and says that nothing was written.
    static func refusal(of row: Line, column: String?, _ message: String, rows: Int) -> String {
        let at = column.map { ", column \u{201C}\($0)\u{201D}" } ?? ""
        let written = rows == 1 ? "it was not written." : "none of the \(rows) rows was written."
        return "Line \(row.line) (" + row.firstCells + ")" + at + ": " + message + "; " + written
    }
}
