import Escaping

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
        append(input, expansion: HTMLEscaping.maxExpansion) { $0.writeEscapedHTML(utf8: $1) }
    }
}
