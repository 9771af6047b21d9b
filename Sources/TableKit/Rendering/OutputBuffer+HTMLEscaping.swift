extension OutputBuffer {
    /// Appends text escaped for HTML text and double- or single-quoted attribute values.
    ///
    /// Escapes `& < > " '` and the line separators U+2028/U+2029. The UTF-8 is scanned once and
    /// escape-free runs are copied in bulk.
    ///
    ///     out.appendEscapedHTML("<script>") // &lt;script&gt;
    public mutating func appendEscapedHTML(_ text: String) {
        withUTF8(of: text) { appendEscapedHTML(utf8: $0) }
    }

    /// Appends UTF-8 text escaped for HTML; see ``appendEscapedHTML(_:)``.
    public mutating func appendEscapedHTML(utf8 input: UnsafeBufferPointer<UInt8>) {
        append(input, expansion: 6) { $0.writeEscapedHTML(utf8: $1) }
    }

    /// Appends `open`, `text` escaped for HTML and `close`, in one reservation when the text is
    /// short (a cell's title), else piece by piece.
    mutating func appendEscapedHTML(_ text: String, between open: StaticString, and close: StaticString) {
        withUTF8(of: text) { input in
            guard input.count <= 4096 else {
                append(open)
                appendEscapedHTML(utf8: input)
                append(close)
                return
            }
            append(maxCount: open.utf8CodeUnitCount + input.count * 6 + close.utf8CodeUnitCount) { out in
                out.write(open)
                out.writeEscapedHTML(utf8: input)
                out.write(close)
            }
        }
    }
}
