import HostileTextSupport
import MicroHTTP
import PropertyBased
@testable import TablePagesDatabase
import TableStore
@testable import TablePagesTestSupport
import Testing

/// Rows pasted from a spreadsheet: tab- and comma-separated text read back into the cells written,
/// whatever the cells hold, and into a table's values.
@Suite("Pasted rows")
struct DelimitedTextTests {
    @Test("A spreadsheet's copy: tabs, a quoted cell with a line break and quotes, CR LF, a last line break")
    func spreadsheetCopy() {
        let copied = "name\tnote\r\nTea\t\"two\nlines, \"\"quoted\"\"\"\r\nCoffee\t\r\n"
        #expect(DelimitedText.separator(of: copied) == "\t")
        #expect(DelimitedText.rows(copied) == [["name", "note"], ["Tea", "two\nlines, \"quoted\""], ["Coffee", ""]])
    }

    @Test("CSV: commas, a quoted comma, a quote inside an unquoted cell kept, blank lines left out")
    func csv() {
        let text = "a,\"b, c\",d\n\n5\" disk,x,\"\"\n"
        #expect(DelimitedText.separator(of: text) == ",")
        #expect(DelimitedText.rows(text) == [["a", "b, c", "d"], ["5\" disk", "x", ""]])
    }

    /// Any rows of any cells (hostile text: quotes, separators, line breaks, combining marks,
    /// right-to-left runs…), written with either separator, read back as they were.
    @Test("Any rows of any text, written with tabs or commas, are read back cell for cell")
    func roundTrip() async {
        let cell = HostileText.text
        let row = cell.array(of: 1...4)
        await propertyCheckFailingOnThrow(input: row.array(of: 1...5), Gen.bool) { rows, tabs in
            let separator: Unicode.Scalar = tabs ? "\t" : ","
            let text = DelimitedText.text(rows, separator: separator)
            #expect(DelimitedText.rows(text, separator: separator) == rows, "\(text.debugDescription)")
        }
    }

    @Test("Only LF and CR LF end a line: a lone CR, U+0085, U+2028 and U+2029 stay in their cells, and count no line")
    func onlyLineFeedsBreakLines() {
        let text = "a\rb\tc\u{85}d\u{2028}e\u{2029}\r\n\n\"q\r\"\tx\r\n\ry\tz\r"
        #expect(DelimitedText.numberedRows(text).map(\.line) == [1, 3, 4])
        #expect(DelimitedText.rows(text) == [["a\rb", "c\u{85}d\u{2028}e\u{2029}"], ["q\r", "x"], ["\ry", "z\r"]])
    }

    /// The characters a spreadsheet leaves unquoted that other readers take for line breaks.
    static let unquotedBreaks = ["\r", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}", "a", "\r\r", " \r ", "\u{85}\r"]

    /// Rows as a spreadsheet copies them: a cell quoted only when it must be (it holds the
    /// separator, a quote or an LF, ends with a CR that the line's LF would join, or is a row's
    /// only cell and empty), so a lone CR, U+0085, U+2028 and U+2029 go as they are.
    static func spreadsheetText(_ rows: [[String]], separator: Unicode.Scalar) -> String {
        rows.map { row in
            row.map { cell in
                let needsQuotes = cell.isEmpty && row.count == 1 || cell.unicodeScalars.last == "\r"
                    || cell.unicodeScalars.contains { $0 == separator || $0 == "\"" || $0 == "\n" }
                guard needsQuotes else { return cell }
                // By scalars: a quote followed by a combining mark is one `Character`, still a quote.
                var quoted = String.UnicodeScalarView(["\""])
                for scalar in cell.unicodeScalars {
                    quoted.append(contentsOf: scalar == "\"" ? ["\"", "\""] : [scalar])
                }
                quoted.append("\"")
                return String(quoted)
            }.joined(separator: String(separator))
        }.joined(separator: "\r\n") + "\r\n"
    }

    /// Any cells that hold a lone CR, U+0085, U+2028 or U+2029 among hostile text, written as a
    /// spreadsheet writes them (unquoted where it can), are read back exactly, one row a line.
    @Test("Cells with a lone CR, U+0085, U+2028 or U+2029, copied as a spreadsheet copies them, are read back exactly")
    func spreadsheetRoundTrip() async {
        let cell = zip(HostileText.text, Gen.int(in: 0...(Self.unquotedBreaks.count - 1)).array(of: 1...4)).map { text, picks in
            picks.map { Self.unquotedBreaks[$0] }.joined(separator: text)
        }
        await propertyCheckFailingOnThrow(input: cell.array(of: 1...4).array(of: 1...5), Gen.bool) { rows, tabs in
            let separator: Unicode.Scalar = tabs ? "\t" : ","
            let text = Self.spreadsheetText(rows, separator: separator)
            #expect(DelimitedText.rows(text, separator: separator) == rows, "\(text.debugDescription)")
        }
    }

    /// Any text at all is read into some rows without a crash, and no row is empty.
    @Test("Any text is read into rows, none of them blank")
    func anyText() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            let rows = DelimitedText.rows(text)
            #expect(rows.allSatisfy { !$0.isEmpty })
        }
    }

    static let columns = [
        EditableColumn(name: "id", declaredType: "INTEGER", isNotNull: true, defaultSQL: nil, fillsItself: true, editor: .integer, isPostgresBoolean: false),
        EditableColumn(name: "name", declaredType: "TEXT", isNotNull: true, defaultSQL: nil, fillsItself: false, editor: .text, isPostgresBoolean: false),
        EditableColumn(name: "price", declaredType: "REAL", isNotNull: false, defaultSQL: nil, fillsItself: false, editor: .real, isPostgresBoolean: false),
    ]

    @Test("A first line of column names says which column each cell holds; empty cells get their default; NULL is NULL")
    func headerNamesColumns() throws {
        let rows = try PastedRows.values("Price\tname\n2.5\tTea\nNULL\tCoffee\n\tWater", columns: Self.columns, maxRows: 10)
        #expect(rows == [["price": .real(2.5), "name": .text("Tea")], ["price": .null, "name": .text("Coffee")], ["name": .text("Water")]])
    }

    @Test("Without names the cells fill the columns in order; a problem names the line and the column")
    func problemsNameLineAndColumn() throws {
        #expect(try PastedRows.values("7,Tea,1", columns: Self.columns, maxRows: 10) == [["id": .integer(7), "name": .text("Tea"), "price": .real(1)]])
        let cases: [(text: String, maxRows: Int, message: String)] = [
            ("1,Tea\n\n2,\n", 10, "Line 3 (\u{201C}2\u{201D}, \u{201C}\u{201D}), column \u{201C}name\u{201D}"),
            ("1,Tea,2,extra", 10, "Line 1 has 4 cells"),
            ("1,a\n2,b\n3,c", 2, "at most 2"),
        ]
        for (text, maxRows, message) in cases {
            let error = #expect(throws: HTTPError.self) { try PastedRows.values(text, columns: Self.columns, maxRows: maxRows) }
            #expect(error?.status == 400)
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        }
    }

    /// A value shown in an input (``EditInput/text(of:)``) is read back as the same value for its column.
    @Test("A value shown in a form is read back as the same value")
    func formValuesRoundTrip() async {
        await propertyCheckFailingOnThrow(input: Gen<UInt64>.value().map { Int64(bitPattern: $0) }, HostileText.text) { number, text in
            #expect(EditInput.value(EditInput.text(of: .integer(number)), for: Self.columns[0]) == .integer(number))
            #expect(EditInput.value(EditInput.text(of: .text(text)), for: Self.columns[1]) == .text(text))
            let real = Double(number) / 7
            #expect(EditInput.value(EditInput.text(of: .real(real)), for: Self.columns[2]) == .real(real))
        }
    }
}
