extension ByteWriter {
    /// Writes a JSON string literal, or `null` when `text` is nil; see
    /// ``OutputBuffer/appendJSONString(_:)-(String)``. Reserve ``maxEscapedCount(_:)`` plus 4.
    mutating func writeJSONString(_ text: String?) {
        guard let text else {
            write("null")
            return
        }
        write(byte: UInt8(ascii: "\""))
        withUTF8(of: text) { writeEscapedJSON(utf8: $0) }
        write(byte: UInt8(ascii: "\""))
    }

    /// Writes UTF-8 escaped for the inside of a JSON string literal, scanning once and copying
    /// escape-free runs in bulk. Reserve six bytes per input byte.
    mutating func writeEscapedJSON(utf8 input: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let end = input.count
        while index < end {
            let byte = input[index]
            if !Self.mayNeedJSONEscape(byte) {
                index += 1
                continue
            }
            var width = 1
            var replacement: StaticString? = nil
            var controlCode: UInt8? = nil
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
            case 0xE2:
                index += 1
                continue
            default:
                controlCode = byte
            }
            write(UnsafeBufferPointer(rebasing: input[runStart..<index]))
            if let replacement {
                write(replacement)
            } else if let controlCode {
                writeUnicodeEscape(controlCode)
            }
            index += width
            runStart = index
        }
        write(UnsafeBufferPointer(rebasing: input[runStart..<end]))
    }

    /// Whether `byte` is a control character, one of `" & < > \\`, or 0xE2, which starts U+2028
    /// and U+2029.
    private static func mayNeedJSONEscape(_ byte: UInt8) -> Bool {
        // A bit per byte value below 64 (where all but two are) instead of a comparison per
        // character: this runs once per byte of text.
        let controls: UInt64 = 0xFFFF_FFFF
        let ascii: UInt64 = controls | 1 << 0x22 | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E
        return byte < 64 ? ascii &>> UInt64(byte) & 1 != 0 : byte == 0x5C || byte == 0xE2
    }

    /// Writes `\u00XX` for a control character.
    private mutating func writeUnicodeEscape(_ byte: UInt8) {
        let hex: StaticString = "0123456789abcdef"
        write("\\u00")
        hex.withUTF8Buffer { digits in
            write(byte: digits[Int(byte >> 4)])
            write(byte: digits[Int(byte & 0x0F)])
        }
    }
}
