import HostileTextSupport
import PropertyBased
import Testing
import TableKit

@Suite("Cutting text to a number of UTF-8 bytes", .shrinking(false))
struct UTF8PrefixTests {
    @Test("The prefix never exceeds the bound, is a prefix of the text, and ends between characters when it can")
    func properties() async {
        await propertyCheckFailingOnThrow(input: HostileText.text, Gen.int(in: 0...300)) { text, maxCount in
            let cut = text.prefix(maxUTF8Count: maxCount)
            let bytes = Array(cut.utf8)
            #expect(bytes.count <= maxCount)
            #expect(Array(text.utf8.prefix(bytes.count)) == bytes, "a prefix of the input's UTF-8")
            #expect(Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes, "valid UTF-8")
            guard text.utf8.count > maxCount else {
                #expect(bytes == Array(text.utf8), "unchanged when short")
                return
            }
            if let first = text.first, first.utf8.count <= maxCount {
                // On a character boundary, and the next character would not have fit.
                let characters = String(cut).count
                #expect(Array(String(text.prefix(characters)).utf8) == bytes)
                #expect(String(text.prefix(characters + 1)).utf8.count > maxCount)
            } else {
                // The first character alone is too long: the longest prefix of whole scalars.
                let next = text.unicodeScalars.dropFirst(cut.unicodeScalars.count).first
                #expect(bytes.count + (next.map { String($0).utf8.count } ?? 0) > maxCount)
            }
        }
    }

    @Test("One character of a megabyte is cut to whole scalars within the bound")
    func graphemeHeavyText() {
        let cut = HostileText.graphemeHeavy.prefix(maxUTF8Count: 200)
        // "a" and 99 two-byte accents: 199 bytes; a hundredth accent would make 201.
        #expect(cut.utf8.count == 199)
        #expect(cut.unicodeScalars.first == "a" && cut.unicodeScalars.dropFirst().allSatisfy { $0 == "\u{0301}" })
        #expect(HostileText.graphemeHeavy.count == 1)
    }

    @Test("Short text is returned whole and characters are not split", arguments: [
        ("héllo", 2, "h"), ("héllo", 3, "hé"), ("e\u{301}x", 3, "e\u{301}"), ("e\u{301}x", 2, "e"),
        ("\u{1F1EB}\u{1F1F7}\u{1F1E9}\u{1F1EA}", 12, "\u{1F1EB}\u{1F1F7}"), ("", 0, ""), ("abc", 0, ""), ("abc", 3, "abc"),
    ])
    func examples(text: String, maxCount: Int, expected: String) {
        #expect(Array(text.prefix(maxUTF8Count: maxCount).utf8) == Array(expected.utf8))
    }
}
