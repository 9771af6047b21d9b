extension ByteWriter {
    /// Writes text percent-encoded for one URL path segment or query value; see
    /// ``OutputBuffer/appendPercentEncoded(_:)``. Reserve ``maxPercentEncodedCount(_:)``.
    mutating func writePercentEncoded(_ text: String) {
        withUTF8(of: text) { writePercentEncoded(utf8: $0) }
    }

    /// Writes UTF-8 percent-encoded, copying runs of unreserved characters in bulk.
    /// Reserve three bytes per input byte.
    mutating func writePercentEncoded(utf8 input: UnsafeBufferPointer<UInt8>) {
        let hex: StaticString = "0123456789ABCDEF"
        var runStart = 0
        for index in input.indices {
            switch input[index] {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                continue
            case let byte:
                // Identifiers are mostly unreserved characters: copy runs in bulk.
                write(UnsafeBufferPointer(rebasing: input[runStart..<index]))
                write(byte: UInt8(ascii: "%"))
                hex.withUTF8Buffer { digits in
                    write(byte: digits[Int(byte >> 4)])
                    write(byte: digits[Int(byte & 0x0F)])
                }
                runStart = index + 1
            }
        }
        write(UnsafeBufferPointer(rebasing: input[runStart...]))
    }
}
