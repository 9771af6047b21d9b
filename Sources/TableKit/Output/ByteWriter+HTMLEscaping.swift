import Escaping

extension ByteWriter: ByteSink {}

extension ByteWriter {
    /// Writes text escaped for HTML text and quoted attribute values; see
    /// ``OutputBuffer/appendEscapedHTML(_:)``. Reserve ``maxEscapedCount(_:)``.
    mutating func writeEscapedHTML(_ text: String) {
        withUTF8(of: text) { writeEscapedHTML(utf8: $0) }
    }

    /// Writes UTF-8 escaped for HTML (``/Escaping/HTMLEscaping``). Reserve six bytes per input byte.
    mutating func writeEscapedHTML(utf8 input: UnsafeBufferPointer<UInt8>) {
        HTMLEscaping.escape(input, into: &self)
    }
}
