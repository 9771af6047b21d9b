/// Percent-encoding for one URL path segment or query value, and its decoding: the one
/// implementation that TableKit's renderer (links and form actions), MicroHTTP's `PercentEncoding`
/// and TableStorePostgres's URL parsing use.
///
/// Keeps only RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`), so the result is also safe
/// inside an HTML attribute without further escaping.
///
///     URLComponentEncoding.encode("a b/c")  // a%20b%2Fc
public enum URLComponentEncoding {
    /// The most bytes encoding writes per byte of input (`%XX`).
    @inlinable public static var maxExpansion: Int { 3 }

    /// `text` percent-encoded.
    public static func encode(_ text: String) -> String {
        transformed(text, unless: { $0.allSatisfy(isUnreserved) }) { encode($0, into: &$1) }
    }

    /// Writes UTF-8 `input` percent-encoded into `sink`, copying runs of unreserved characters
    /// in bulk; at most ``maxExpansion`` bytes per input byte.
    @inlinable
    public static func encode<Sink: ByteSink>(_ input: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        let hex: StaticString = "0123456789ABCDEF"
        var runStart = 0
        for index in input.indices {
            let byte = input[index]
            if isUnreserved(byte) { continue }
            // Identifiers are mostly unreserved characters: copy runs in bulk.
            sink.write(UnsafeBufferPointer(rebasing: input[runStart..<index]))
            sink.write(byte: UInt8(ascii: "%"))
            hex.withUTF8Buffer { digits in
                sink.write(byte: digits[Int(byte >> 4)])
                sink.write(byte: digits[Int(byte & 0x0F)])
            }
            runStart = index + 1
        }
        sink.write(UnsafeBufferPointer(rebasing: input[runStart...]))
    }

    /// Whether `byte` is an RFC 3986 unreserved character.
    @inlinable
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`), or returns nil when an escape is
    /// malformed or the result is not valid UTF-8, so callers can answer 400 instead of guessing.
    ///
    /// The bytes are read as UTF-8 exactly: Foundation's `removingPercentEncoding` drops a leading
    /// byte-order mark, which a password or a name may hold.
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

    /// Decodes as a WHATWG URL parser and Python's `urllib.parse.unquote` do: a `%` not followed by
    /// two hex digits stays as it is, and bytes that are not UTF-8 become U+FFFD. For where a
    /// refusal would answer differently from the server a client was written for.
    ///
    ///     URLComponentEncoding.decodeLeniently("C%Z%41")  // "C%ZA"
    public static func decodeLeniently(_ text: Substring, plusAsSpace: Bool = false) -> String {
        String(decoding: unescaped(Array(text.utf8), escape: UInt8(ascii: "%"), plusAsSpace: plusAsSpace), as: UTF8.self)
    }

    /// `input` with each `escape` and two hex digits (either case) made the byte they name, and
    /// `+` a space when `plusAsSpace`; an `escape` without two hex digits stays as it is. The
    /// lenient decoding of percent- and tilde-encoding alike.
    static func unescaped(_ input: [UInt8], escape: UInt8, plusAsSpace: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == escape, index + 2 < input.count, let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return bytes
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
