import Escaping
import HostileTextSupport
import PropertyBased
import Testing

@Suite struct URLComponentEncodingTests {
    @Test("A lenient decoding keeps a malformed escape as Python's unquote does, and is the strict one where that succeeds")
    func lenientDecoding() async {
        #expect(URLComponentEncoding.decodeLeniently("C%Z") == "C%Z")
        #expect(URLComponentEncoding.decodeLeniently("%%41%4") == "%A%4")
        #expect(URLComponentEncoding.decodeLeniently("%ff+x", plusAsSpace: true) == "\u{FFFD} x")
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            #expect(URLComponentEncoding.decodeLeniently(URLComponentEncoding.encode(text)[...]) == text)
            // A stray `%` read as itself is the same as that `%` sent escaped.
            let bytes = Array(text.utf8)
            var escaped: [UInt8] = []
            for (index, byte) in bytes.enumerated() {
                let isEscape = byte == UInt8(ascii: "%") && index + 2 < bytes.count && bytes[(index + 1)...(index + 2)].allSatisfy { $0.isHexDigit }
                escaped += byte == UInt8(ascii: "%") && !isEscape ? Array("%25".utf8) : [byte]
            }
            if let strict = URLComponentEncoding.decode(String(decoding: escaped, as: UTF8.self)[...]) {
                #expect(URLComponentEncoding.decodeLeniently(text[...]) == strict)
            }
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool { (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self) }
}
