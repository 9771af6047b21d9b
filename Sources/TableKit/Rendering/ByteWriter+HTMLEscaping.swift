extension ByteWriter {
    /// Writes text escaped for HTML text and quoted attribute values; see
    /// ``OutputBuffer/appendEscapedHTML(_:)``. Reserve ``maxEscapedCount(_:)``.
    mutating func writeEscapedHTML(_ text: String) {
        withUTF8(of: text) { writeEscapedHTML(utf8: $0) }
    }

    /// Writes UTF-8 escaped for HTML, scanning once and copying escape-free runs in bulk.
    /// Reserve six bytes per input byte.
    mutating func writeEscapedHTML(utf8 input: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let end = input.count
        while index < end {
            let byte = input[index]
            if !Self.mayNeedHTMLEscape(byte) {
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
            write(UnsafeBufferPointer(rebasing: input[runStart..<index]))
            write(replacement)
            index += width
            runStart = index
        }
        write(UnsafeBufferPointer(rebasing: input[runStart..<end]))
    }

    /// Whether `byte` is one of `" & ' < >` or 0xE2, which starts U+2028 and U+2029.
    private static func mayNeedHTMLEscape(_ byte: UInt8) -> Bool {
        // A bit per byte value below 64 (where the ASCII ones are) instead of a comparison per
        // character: this runs once per byte of text, and spaces and digits are common.
        let ascii: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E
        return byte < 64 ? ascii &>> UInt64(byte) & 1 != 0 : byte == 0xE2
    }
}
