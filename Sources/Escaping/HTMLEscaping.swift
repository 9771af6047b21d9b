/// Escaping for HTML text and quoted attribute values: the one implementation that TableKit's
/// renderer, the service's documents and anything else writing HTML use.
///
/// Escapes `& < > " '` and the line separators U+2028/U+2029, scanning the UTF-8 once and
/// copying escape-free runs in bulk.
///
///     HTMLEscaping.escape("<b>\"hi\"</b>")  // &lt;b&gt;&quot;hi&quot;&lt;/b&gt;
public enum HTMLEscaping {
    /// The most bytes escaping writes per byte of input (`"` → `&quot;`).
    @inlinable public static var maxExpansion: Int { 6 }

    /// `text` escaped, for the odd short string; renderers write with ``escape(_:into:)``.
    public static func escape(_ text: String) -> String {
        transformed(text, unless: { !$0.contains(where: mayNeedEscape) }) { escape($0, into: &$1) }
    }

    /// Writes UTF-8 `input` escaped into `sink`; at most ``maxExpansion`` bytes per input byte.
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
            let replacement: StaticString
            var width = 1
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            case 0xE2 where index + 2 < end && input[index + 1] == 0x80 && input[index + 2] == 0xA8:
                replacement = "&#x2028;"
                width = 3
            case 0xE2 where index + 2 < end && input[index + 1] == 0x80 && input[index + 2] == 0xA9:
                replacement = "&#x2029;"
                width = 3
            default:
                index += 1
                continue
            }
            sink.write(UnsafeBufferPointer(rebasing: input[runStart..<index]))
            sink.write(replacement)
            index += width
            runStart = index
        }
        sink.write(UnsafeBufferPointer(rebasing: input[runStart..<end]))
    }

    /// Whether `byte` is one of `" & ' < >` or 0xE2, which starts U+2028 and U+2029.
    @inlinable
    static func mayNeedEscape(_ byte: UInt8) -> Bool {
        // A bit per byte value below 64 (where the ASCII ones are) instead of a comparison per
        // character: this runs once per byte of text, and spaces and digits are common.
        let ascii: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E
        return byte < 64 ? ascii &>> UInt64(byte) & 1 != 0 : byte == 0xE2
    }
}
