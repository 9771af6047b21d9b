import Escaping

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

    /// Writes UTF-8 escaped for the inside of a JSON string literal (``/Escaping/JSONEscaping``).
    /// Reserve six bytes per input byte.
    mutating func writeEscapedJSON(utf8 input: UnsafeBufferPointer<UInt8>) {
        JSONEscaping.escape(input, into: &self)
    }
}
