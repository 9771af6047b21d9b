/// Rows copied from a spreadsheet, as text: tab-separated (what LibreOffice, Excel and Google
/// Sheets put on the clipboard) or comma-separated (a CSV file's text), read into cells.
///
/// Both are read by RFC 4180's rules with the separator the text uses: a cell that holds the
/// separator, a quote or a line break is wrapped in double quotes, and a quote inside it is
/// doubled; lines end with LF or CR LF; a last line break adds no row. A quote inside a cell that
/// does not start with one is kept as it is, as spreadsheets read it. Only LF and CR LF break a
/// line: a lone CR, U+0085, U+2028 and U+2029 are a cell's text, quoted or not.
///
///     DelimitedText.rows("name\tprice\nTea\t2.5\n")   // [["name", "price"], ["Tea", "2.5"]]
///     DelimitedText.rows("a,\"b, c\"")                 // [["a", "b, c"]]
enum DelimitedText {
    /// The separator between cells of `text`: a tab when its first line (up to the first LF) holds
    /// one (a spreadsheet's copy), else a comma.
    static func separator(of text: String) -> Unicode.Scalar {
        for scalar in text.unicodeScalars {
            if scalar == "\t" { return "\t" }
            if scalar == "\n" { break }
        }
        return ","
    }

    /// The cells of every line of `text`, separated by `separator` (by default the one the text
    /// uses, ``separator(of:)``). Blank lines are left out: a spreadsheet's copy of a selection
    /// that ends in an empty row means no row by it.
    ///
    /// Read by Unicode scalars, not characters: a quote or a separator followed by a combining
    /// mark is one character to Swift, but still a quote or a separator to the spreadsheet.
    static func rows(_ text: String, separator: Unicode.Scalar? = nil) -> [[String]] {
        numberedRows(text, separator: separator).map(\.cells)
    }

    /// ``rows(_:separator:)`` with the number of the line of `text` each row starts on (from 1,
    /// counting blank lines and the line breaks inside quoted cells), as a person looking at the
    /// pasted text counts them.
    static func numberedRows(_ text: String, separator: Unicode.Scalar? = nil) -> [(line: Int, cells: [String])] {
        let separator = separator ?? self.separator(of: text)
        var rows: [(line: Int, cells: [String])] = []
        var row: [String] = []
        // The line the scalar being read is on, and the one the row being read started on.
        var line = 1
        var rowLine = 1
        var cell = String.UnicodeScalarView()
        var quoted = false
        var afterQuote = false
        // Whether the cell started: only a quote at its start makes it a quoted cell.
        var cellStarted = false
        // An unquoted CR read last: a line break if an LF follows, else the cell's own.
        var pendingCarriageReturn = false

        func endCell() {
            row.append(String(cell))
            cell = String.UnicodeScalarView()
            quoted = false
            afterQuote = false
            cellStarted = false
        }
        func endRow() {
            let blank = row.isEmpty && cell.isEmpty && !cellStarted
            endCell()
            if !blank { rows.append((rowLine, row)) }
            row = []
            // Called on an LF (or at the end): the next row starts on the next line.
            rowLine = line + 1
        }
        func append(_ scalar: Unicode.Scalar) {
            cell.append(scalar)
            cellStarted = true
            afterQuote = false
        }

        for scalar in text.unicodeScalars {
            // Only LF ends a line (a CR LF's CR is dropped below): a lone CR, U+0085, U+2028 and
            // U+2029 are text a cell holds, as a spreadsheet pastes them.
            defer { if scalar == "\n" { line += 1 } }
            if pendingCarriageReturn {
                pendingCarriageReturn = false
                if scalar == "\n" {
                    endRow()
                    continue
                }
                append("\r")
            }
            if quoted {
                if scalar == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    cell.append(scalar)
                }
                continue
            }
            if afterQuote && scalar == "\"" {
                // A doubled quote inside a quoted cell: one quote, and the cell goes on quoted.
                cell.append("\"")
                quoted = true
                afterQuote = false
                continue
            }
            switch scalar {
            case separator:
                endCell()
            case "\r":
                pendingCarriageReturn = true
            case "\n":
                endRow()
            case "\"" where !cellStarted:
                quoted = true
                cellStarted = true
            default:
                append(scalar)
            }
        }
        if pendingCarriageReturn { append("\r") }
        if !cell.isEmpty || !row.isEmpty || cellStarted { endRow() }
        return rows
    }

    /// `rows` written as ``rows(_:separator:)`` reads them: each cell quoted when it needs to be.
    static func text(_ rows: [[String]], separator: Unicode.Scalar) -> String {
        rows.map { row in
            row.map { cell in
                let needsQuotes = cell.isEmpty && row.count == 1
                    || cell.unicodeScalars.contains { $0 == separator || $0 == "\"" || $0 == "\n" || $0 == "\r" }
                guard needsQuotes else { return cell }
                var quoted = String.UnicodeScalarView()
                quoted.append("\"")
                for scalar in cell.unicodeScalars {
                    quoted.append(scalar)
                    if scalar == "\"" { quoted.append("\"") }
                }
                quoted.append("\"")
                return String(quoted)
            }.joined(separator: String(separator))
        }.joined(separator: "\n")
    }
}
