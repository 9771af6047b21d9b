extension OutputBuffer {
    /// Appends a JSON string literal: the text in double quotes, escaped.
    ///
    /// Besides what JSON requires (`"`, `\`, control characters), escapes `<`, `>`, `&` and
    /// U+2028/U+2029 so the output is safe inside HTML and JavaScript and stays on one line
    /// (an SSE `data:` line).
    ///
    ///     out.appendJSONString("a\"b") // "a\"b"
    public mutating func appendJSONString(_ text: String) {
        append(byte: UInt8(ascii: "\""))
        appendEscapedJSON(text)
        append(byte: UInt8(ascii: "\""))
    }

    /// Appends a JSON string literal, or `null` when `text` is nil.
    public mutating func appendJSONString(_ text: String?) {
        if let text {
            appendJSONString(text)
        } else {
            append("null")
        }
    }

    /// Appends text escaped for the inside of a JSON string literal, without the quotes.
    public mutating func appendEscapedJSON(_ text: String) {
        var text = text
        text.withUTF8 { appendEscapedJSON(utf8: $0) }
    }

    /// Appends UTF-8 text escaped for the inside of a JSON string literal; see ``appendJSONString(_:)``.
    public mutating func appendEscapedJSON(utf8 input: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let end = input.count
        while index < end {
            let byte = input[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x3C && byte != 0x3E
                && byte != 0x26 && byte != 0xE2 {
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
            if runStart < index {
                append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
            }
            if let replacement {
                append(replacement)
            } else if let controlCode {
                appendUnicodeEscape(controlCode)
            }
            index += width
            runStart = index
        }
        if runStart < end {
            append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<end]))
        }
    }

    /// Appends `\u00XX` for a control character.
    private mutating func appendUnicodeEscape(_ byte: UInt8) {
        let hex: StaticString = "0123456789abcdef"
        append("\\u00")
        hex.withUTF8Buffer { digits in
            append(byte: digits[Int(byte >> 4)])
            append(byte: digits[Int(byte & 0x0F)])
        }
    }
}
