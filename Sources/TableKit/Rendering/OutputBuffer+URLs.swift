extension OutputBuffer {
    /// Appends text percent-encoded for one URL path segment or query value.
    ///
    /// Keeps only RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`), so the result is also
    /// safe inside an HTML attribute without further escaping.
    ///
    ///     out.appendPercentEncoded("a b/c") // a%20b%2Fc
    public mutating func appendPercentEncoded(_ text: String) {
        let hex: StaticString = "0123456789ABCDEF"
        hex.withUTF8Buffer { digits in
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                     UInt8(ascii: "_"), UInt8(ascii: "~"):
                    append(byte: byte)
                default:
                    append(byte: UInt8(ascii: "%"))
                    append(byte: digits[Int(byte >> 4)])
                    append(byte: digits[Int(byte & 0x0F)])
                }
            }
        }
    }
}
