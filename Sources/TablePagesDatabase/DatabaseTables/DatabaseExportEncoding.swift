import Foundation
import TableStore
import TableKit

/// A database row as a line of an export, values whole.
///
/// CSV follows RFC 4180: a header row of column names, rows ending in CRLF, a field quoted (with
/// each `"` doubled) when it holds `,`, `"`, CR or LF. NULL, empty text and an empty blob stay
/// apart, as PostgreSQL's `COPY … CSV` keeps them: NULL is an empty field, empty text `""`, a blob
/// `\x` and its bytes in hex (an empty blob `\x`). A row whose only value is NULL is `\N`, since
/// an empty line is no row to CSV readers (Python's `csv` reads none).
/// NDJSON is one JSON object per row, `{"column": value, …}` and a LF, values typed as in a page's
/// `fields`: numbers, `null`, strings, a blob as a base64 string; a non-finite number as `null`.
enum DatabaseExportEncoding {
    /// The CSV header row.
    static func appendCSVHeader(_ columns: [String], to out: inout OutputBuffer) {
        for (index, column) in columns.enumerated() {
            if index > 0 { out.append(",") }
            appendCSVField(column, to: &out)
        }
        out.append("\r\n")
    }

    /// One CSV row.
    static func appendCSVRow(_ values: ArraySlice<SQLValue>, to out: inout OutputBuffer) {
        // Concrete types and plain loops: an export runs this a million times.
        for index in values.indices {
            if index > values.startIndex { out.append(",") }
            switch values[index] {
            case .null: if values.count == 1 { out.append("\\N") }
            case .integer(let integer): out.append(Int(integer))
            case .real(let double) where double.isFinite: out.append(double)
            case .real(let double): out.appendUnescaped(String(double))
            case .bool(let flag): out.append(flag ? "true" : "false")
            case .text(let text) where text.isEmpty: out.append("\"\"")
            case .text(let text): appendCSVField(text, to: &out)
            case .blob(let data):
                out.append("\\x")
                out.appendUnescaped(DatabaseValueCoding.hex(data))
            }
        }
        out.append("\r\n")
    }

    /// One NDJSON line.
    static func appendNDJSONRow(columns: [String], values: ArraySlice<SQLValue>, to out: inout OutputBuffer) {
        out.append("{")
        for (index, column) in zip(values.indices, columns) {
            if index > values.startIndex { out.append(",") }
            out.appendJSONString(column)
            out.append(":")
            switch values[index] {
            case .null: out.append("null")
            case .integer(let integer): out.append(Int(integer))
            case .real(let double) where double.isFinite: out.append(double)
            case .real: out.append("null")
            case .text(let text): out.appendJSONString(text)
            case .bool(let flag): out.append(flag ? "true" : "false")
            case .blob(let data): out.appendJSONString(data.base64EncodedString())
            }
        }
        out.append("}\n")
    }

    /// `text` as a CSV field: as it is, or quoted when it holds a separator, a quote or a line end.
    static func appendCSVField(_ text: String, to out: inout OutputBuffer) {
        guard text.utf8.contains(where: isSpecial) else {
            out.appendUnescaped(text)
            return
        }
        out.append("\"")
        // Byte by byte: a quote followed by a combining mark is still a quote to a CSV reader.
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { out.append(byte: byte) }
            out.append(byte: byte)
        }
        out.append("\"")
    }

    /// Whether a field holding `byte` must be quoted: a separator, a quote, CR or LF.
    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "\""), 0x0d, 0x0a: true
        default: false
        }
    }
}
