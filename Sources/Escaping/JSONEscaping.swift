/// Escaping for the inside of a JSON string literal: the one implementation that TableKit's
/// renderer, the server's error bodies and its log lines use.
///
/// Besides what JSON requires (`"`, `\`, the C0 controls), escapes DEL and the C1 controls
/// (terminals act on them), `<`, `>` and `&` (so the output is safe inside HTML and JavaScript),
/// and U+2028/U+2029, so a string stays on one line: an SSE `data:` line, a log line.
///
///     "\"" + JSONEscaping.escape("a\"b") + "\""  // "a\"b"
public enum JSONEscaping {
    /// The most bytes escaping writes per byte of input (`<` → `\u003c`).
    @inlinable public static var maxExpansion: Int { 6 }

    /// `text` escaped, without the quotes, for the odd short string; renderers write with
    /// ``escape(_:into:)``.
    public static func escape(_ text: String) -> String {
        transformed(text, unless: { !$0.contains(where: mayNeedEscape) }) { escape($0, into: &$1) }
    }

    /// Writes UTF-8 `input` escaped into `sink`, without quotes; at most ``maxExpansion`` bytes
    /// per input byte.
    @inlinable
    public static func escape<Sink: ByteSink>(_ input: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        var runStart = 0
        var index = 0
        let end = input.count
        while index < end {
            let byte = input[index]
            if !mayNeedEscape(byte) {
                index += 1
                continue
            }
            var width = 1
            var replacement: StaticString? = nil
            var code: UInt32 = UInt32(byte)
            switch byte {
            case UInt8(ascii: "\""): replacement = "\\\""
            case UInt8(ascii: "\\"): replacement = "\\\\"
            case UInt8(ascii: "\n"): replacement = "\\n"
            case UInt8(ascii: "\r"): replacement = "\\r"
            case UInt8(ascii: "\t"): replacement = "\\t"
            case UInt8(ascii: "<"): replacement = "\\u003c"
            case UInt8(ascii: ">"): replacement = "\\u003e"
            case UInt8(ascii: "&"): replacement = "\\u0026"
            case 0xE2 where index + 2 < end && input[index + 1] == 0x80 && input[index + 2] == 0xA8:
                replacement = "\\u2028"
                width = 3
            case 0xE2 where index + 2 < end && input[index + 1] == 0x80 && input[index + 2] == 0xA9:
                replacement = "\\u2029"
                width = 3
            case 0xC2 where index + 1 < end && input[index + 1] >= 0x80 && input[index + 1] <= 0x9F:
                // A C1 control, U+0080…U+009F.
                code = UInt32(input[index + 1])
                width = 2
            case 0xE2, 0xC2:
                index += 1
                continue
            default:
                // A C0 control or DEL.
                break
            }
            sink.write(UnsafeBufferPointer(rebasing: input[runStart..<index]))
            if let replacement {
                sink.write(replacement)
            } else {
                writeUnicodeEscape(code, into: &sink)
            }
            index += width
            runStart = index
        }
        sink.write(UnsafeBufferPointer(rebasing: input[runStart..<end]))
    }

    /// Whether `byte` is a control character, DEL, one of `" & < > \\`, 0xC2 (which starts the
    /// C1 controls) or 0xE2 (which starts U+2028 and U+2029).
    @inlinable
    static func mayNeedEscape(_ byte: UInt8) -> Bool {
        // A bit per ASCII byte value instead of a comparison per character: this runs once per
        // byte of text, and letters (64 and up) must cost no more than spaces and digits.
        let controls: UInt64 = 0xFFFF_FFFF
        let low: UInt64 = controls | 1 << 0x22 | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E
        let high: UInt64 = 1 << (0x5C - 64) | 1 << (0x7F - 64)
        if byte < 64 { return low &>> UInt64(byte) & 1 != 0 }
        if byte < 128 { return high &>> UInt64(byte &- 64) & 1 != 0 }
        return byte == 0xC2 || byte == 0xE2
    }

    /// Writes `\u00XX` for a control character.
    @inlinable
    static func writeUnicodeEscape<Sink: ByteSink>(_ code: UInt32, into sink: inout Sink) {
        let hex: StaticString = "0123456789abcdef"
        sink.write("\\u00")
        hex.withUTF8Buffer { digits in
            sink.write(byte: digits[Int(code >> 4 & 0xF)])
            sink.write(byte: digits[Int(code & 0xF)])
        }
    }
}
