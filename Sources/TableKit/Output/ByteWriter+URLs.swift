import Escaping

extension ByteWriter {
    /// Writes text percent-encoded for one URL path segment or query value; see
    /// ``OutputBuffer/appendPercentEncoded(_:)``. Reserve ``maxPercentEncodedCount(_:)``.
    mutating func writePercentEncoded(_ text: String) {
        withUTF8(of: text) { writePercentEncoded(utf8: $0) }
    }

    /// Writes UTF-8 percent-encoded (``/Escaping/URLComponentEncoding``). Reserve three bytes per input byte.
    mutating func writePercentEncoded(utf8 input: UnsafeBufferPointer<UInt8>) {
        URLComponentEncoding.encode(input, into: &self)
    }
}
