/// Obviously correct escapers and byte searches that tests compare the fast ones against.
public enum ReferenceEscaping {
    /// `text` escaped for HTML text and attributes, one Unicode scalar at a time: the five
    /// markup-significant characters and the line separators U+2028/U+2029 become references.
    public static func html(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += Array("&amp;".utf8)
            case "<": out += Array("&lt;".utf8)
            case ">": out += Array("&gt;".utf8)
            case "\"": out += Array("&quot;".utf8)
            case "'": out += Array("&#39;".utf8)
            case "\u{2028}": out += Array("&#x2028;".utf8)
            case "\u{2029}": out += Array("&#x2029;".utf8)
            default: UTF8.encode(scalar) { out.append($0) }
            }
        }
        return out
    }

    /// The bytes between the first `open` at or after `start` in `bytes` and the first `close`
    /// after it, or nil when either is missing.
    public static func enclosed(in bytes: [UInt8], between open: String, and close: String, from start: Int = 0) -> [UInt8]? {
        guard let opening = bytes[start...].firstRange(of: Array(open.utf8)),
              let closing = bytes[opening.upperBound...].firstRange(of: Array(close.utf8)) else { return nil }
        return Array(bytes[opening.upperBound..<closing.lowerBound])
    }

    /// Whether `needle` occurs in `bytes`.
    public static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        bytes.firstRange(of: needle) != nil
    }
}
