import Escaping

/// Percent-decoding and -encoding of URL components, done on UTF-8 bytes without Foundation.
public enum PercentEncoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`), or returns nil when an escape is
    /// malformed or the result is not valid UTF-8, so callers can answer 400 instead of guessing.
    public static func decode(_ text: Substring, plusAsSpace: Bool = false) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "%")) || (plusAsSpace && utf8.contains(UInt8(ascii: "+"))) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex else { return nil }
                let second = utf8.index(after: first)
                guard second != utf8.endIndex,
                      let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) else { return nil }
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
                continue
            }
            bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decodes a whole string; see ``decode(_:plusAsSpace:)-(Substring,_)``.
    public static func decode(_ text: String, plusAsSpace: Bool = false) -> String? {
        decode(text[...], plusAsSpace: plusAsSpace)
    }

    /// Encodes everything but RFC 3986 unreserved characters, so the result is safe as one path
    /// segment or one query value (``/Escaping/URLComponentEncoding``).
    ///
    ///     PercentEncoding.encode("a b/c")   // "a%20b%2Fc"
    public static func encode(_ text: String) -> String {
        URLComponentEncoding.encode(text)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
