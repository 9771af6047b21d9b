extension OutputBuffer {
    /// Appends text escaped for HTML text and double- or single-quoted attribute values.
    ///
    /// Escapes `& < > " '` and the line separators U+2028/U+2029. The UTF-8 is scanned once and
    /// escape-free runs are copied in bulk.
    ///
    ///     out.appendEscapedHTML("<script>") // &lt;script&gt;
    public mutating func appendEscapedHTML(_ text: String) {
        var text = text
        text.withUTF8 { appendEscapedHTML(utf8: $0) }
    }

    /// Appends UTF-8 text escaped for HTML; see ``appendEscapedHTML(_:)``.
    public mutating func appendEscapedHTML(utf8 input: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let end = input.count
        while index < end {
            let byte = input[index]
            // Every byte that may need escaping is at most '>' (0x3E) or starts U+2028/9 (0xE2).
            if byte > 0x3E && byte != 0xE2 {
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
            if runStart < index {
                append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
            }
            append(replacement)
            index += width
            runStart = index
        }
        if runStart < end {
            append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<end]))
        }
    }
}
