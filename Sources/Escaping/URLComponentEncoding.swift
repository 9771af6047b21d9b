/// Percent-encoding for one URL path segment or query value: the one implementation that
/// TableKit's renderer (links and form actions) and MicroHTTP's `PercentEncoding` use.
///
/// Keeps only RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`), so the result is also safe
/// inside an HTML attribute without further escaping.
///
///     URLComponentEncoding.encode("a b/c")  // a%20b%2Fc
public enum URLComponentEncoding {
    /// The most bytes encoding writes per byte of input (`%XX`).
    @inlinable public static var maxExpansion: Int { 3 }

    /// `text` percent-encoded.
    public static func encode(_ text: String) -> String {
        transformed(text, unless: { $0.allSatisfy(isUnreserved) }) { encode($0, into: &$1) }
    }

    /// Writes UTF-8 `input` percent-encoded into `sink`, copying runs of unreserved characters
    /// in bulk; at most ``maxExpansion`` bytes per input byte.
    @inlinable
    public static func encode<Sink: ByteSink>(_ input: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        let hex: StaticString = "0123456789ABCDEF"
        var runStart = 0
        for index in input.indices {
            let byte = input[index]
            if isUnreserved(byte) { continue }
            // Identifiers are mostly unreserved characters: copy runs in bulk.
            sink.write(UnsafeBufferPointer(rebasing: input[runStart..<index]))
            sink.write(byte: UInt8(ascii: "%"))
            hex.withUTF8Buffer { digits in
                sink.write(byte: digits[Int(byte >> 4)])
                sink.write(byte: digits[Int(byte & 0x0F)])
            }
            runStart = index + 1
        }
        sink.write(UnsafeBufferPointer(rebasing: input[runStart...]))
    }

    /// Whether `byte` is an RFC 3986 unreserved character.
    @inlinable
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
