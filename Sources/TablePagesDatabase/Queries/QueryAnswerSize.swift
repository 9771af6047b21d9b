import Escaping
import Foundation
import TableStore

/// How many bytes a query's value takes in the SQL page's answers, which is what
/// ``QueryLimits/bytes`` bounds: text as its JSON and its HTML escaping together (a live query's
/// page holds both; up to 6 bytes per byte each: `"` is `&quot;`, a control character `\u0001`),
/// a blob as the longest of that, its JSON as base64 and its CSV hex, numbers as the most digits
/// they print. Each cell also counts ``cellEnvelope`` and its column's name (the `_shape=objects`
/// JSON repeats it on every row).
///
///     QueryAnswerSize.cell(.text("a\"b"), column: "name") // 12 + 8 + 48 bytes
public enum QueryAnswerSize {
    /// Bytes each cell takes besides its value and its column's name, in the widest answer: the
    /// HTML's `<td class="tp-sql-number">`…`</td>` (31), or JSON's quotes, `: ` and `, `; and
    /// its row's (`<tr>`…`</tr>`, `[`…`], `), every row having a cell.
    public static let cellEnvelope = 48

    /// Bytes of `value` in the SQL page's answers (JSON and HTML together for text).
    public static func of(_ value: SQLValue) -> Int {
        switch value {
        case .null, .bool: 5
        case .integer, .real: 24
        case .text(var text): text.withUTF8(escaped)
        case .blob(let data):
            max(data.withUnsafeBytes { escaped($0.bindMemory(to: UInt8.self)) }, (data.count + 2) / 3 * 4 + 32, 2 * data.count + 2)
        }
    }

    /// Bytes of a cell holding `value` in column `column`.
    public static func cell(_ value: SQLValue, column: String) -> Int {
        var column = column
        return of(value) + column.withUTF8(escaped) + cellEnvelope
    }

    /// Bytes of text (or bytes read as text) escaped for JSON and for HTML, together, and quoted.
    private static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var json = ByteCount()
        var html = ByteCount()
        JSONEscaping.escape(bytes, into: &json)
        HTMLEscaping.escape(bytes, into: &html)
        return json.count + html.count + 2
    }
}

/// A sink that keeps only how many bytes were written to it: the escapers' own output length,
/// without the output.
private struct ByteCount: ByteSink {
    var count = 0

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { count += bytes.count }
    mutating func write(_ text: StaticString) { count += text.utf8CodeUnitCount }
    mutating func write(byte: UInt8) { count += 1 }
}
