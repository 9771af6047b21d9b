import Foundation
import TableStore

/// Database values as identifier text, and back: row ids of WITHOUT ROWID tables (a primary key
/// tuple) and section ids of grouped pages (a group's value).
///
/// Each value is a type letter and a payload: `n` (NULL), `i42`, `f2.5`, `sBooks`, or `h…`/`x…`
/// with hex digits for text that holds a comma, a backslash, a control character or a dot, and for
/// blobs. A dot in text would let an id end like a format (`sreport.json`), which a URL
/// (`/rows/sreport.json`) would read as the JSON of another row; a float's `.` never ends one so.
/// (Ids written before dots were hex-encoded, `sa.b`, still decode.)
/// Values are joined with commas, which no encoded value holds, so a tuple splits back exactly.
/// The type letter keeps the integer 1 and the text "1" apart, as SQLite does.
enum DatabaseValueCoding {
    /// `values` as identifier text.
    static func encode(_ values: [SQLValue]) -> String {
        values.map(encode).joined(separator: ",")
    }

    /// The values `text` encodes, or nil when it is not an encoding of `count` values.
    static func decode(_ text: String, count: Int) -> [SQLValue]? {
        // Split and read by Unicode scalars, not characters: a payload may end with a prepend
        // character or start with a joiner, which would fuse with the comma or the type letter
        // into one character ("s" and U+200D are one character, which is not "s").
        let parts = text.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == count else { return nil }
        var values: [SQLValue] = []
        values.reserveCapacity(count)
        for part in parts {
            guard let value = decode(part) else { return nil }
            values.append(value)
        }
        return values
    }

    private static func encode(_ value: SQLValue) -> String {
        switch value {
        case .null:
            return "n"
        case .integer(let integer):
            return "i" + String(integer)
        case .real(let double):
            return "f" + String(double)
        case .text(let text):
            let plain = !text.unicodeScalars.contains { $0 == "," || $0 == "\\" || $0 == "." || $0.value < 0x20 || $0.value == 0x7f }
            return plain ? "s" + text : "h" + hex(Array(text.utf8))
        case .blob(let data):
            return "x" + hex(Array(data))
        case .bool(let flag):
            // As PostgreSQL's cast to text spells it, which is how its pages read booleans.
            return flag ? "strue" : "sfalse"
        }
    }

    private static func decode(_ part: Substring.UnicodeScalarView) -> SQLValue? {
        guard let letter = part.first else { return nil }
        let payload = Substring(part.dropFirst())
        switch letter {
        case "n": return payload.isEmpty ? .null : nil
        case "i": return Int64(payload).map(SQLValue.integer)
        case "f": return Double(payload).map(SQLValue.real)
        case "s": return .text(String(payload))
        case "h": return bytes(hex: payload).map { .text(String(decoding: $0, as: UTF8.self)) }
        case "x": return bytes(hex: payload).map { .blob(Data($0)) }
        default: return nil
        }
    }

    /// Lower-case hexadecimal digits, two per byte (also how a row page shows a blob's bytes).
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
