import Escaping

extension OutputBuffer {
    /// Appends a JSON string literal: the text in double quotes, escaped.
    ///
    /// Besides what JSON requires (`"`, `\`, control characters), escapes DEL and C1, `<`, `>`, `&` and
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
        withUTF8(of: text) { appendEscapedJSON(utf8: $0) }
    }

    /// Appends UTF-8 text escaped for the inside of a JSON string literal; see ``appendJSONString(_:)-(String)``.
    public mutating func appendEscapedJSON(utf8 input: UnsafeBufferPointer<UInt8>) {
        append(input, expansion: JSONEscaping.maxExpansion) { $0.writeEscapedJSON(utf8: $1) }
    }
}
