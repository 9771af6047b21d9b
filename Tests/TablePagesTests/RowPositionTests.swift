import HostileTextSupport
import MicroHTTP
import PropertyBased
@testable import TablePages
import Testing

@Suite("Row positions (_at)")
struct RowPositionTests {
    @Test func everyNumberInRangeReadsBackAsItself() async {
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...RowPosition.maxIndex)) { number in
            #expect(RowPosition.parse(String(number)) == RowPosition(index: number))
            // Leading zeros within twelve digits mean the same number.
            let padded = String(repeating: "0", count: max(0, 12 - String(number).count)) + String(number)
            #expect(RowPosition.parse(padded) == RowPosition(index: number))
        }
    }

    @Test func anythingButOneToTwelveDigitsIsRefused() async {
        let pieces = ["", "-", "+", " ", ".", "e", "x", "1", "0", "9", "５", "\u{0}", "١", "_", "%20"]
        await propertyCheckFailingOnThrow(input: Gen.element(of: pieces).map { $0 ?? "" }.array(of: 0...16)) { parts in
            let text = parts.joined()
            let isPosition = (1...12).contains(text.utf8.count) && text.utf8.allSatisfy { (48...57).contains($0) }
            #expect((RowPosition.parse(text) != nil) == isPosition, "\(text)")
        }
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            if let position = RowPosition.parse(text) {
                #expect(String(position.index) == String(text.drop { $0 == "0" }).ifEmpty("0"))
            }
        }
    }

    @Test func aRefusalIsA400ThatNamesTheParameter() throws {
        #expect(throws: HTTPError.self) { try RowPosition.parse(query: ["_at": "-1"]) }
        let result = Result { () throws(HTTPError) in try RowPosition.parse(query: ["_at": "1000000000000"]) }
        guard case .failure(let error) = result else {
            Issue.record("13 digits were taken")
            return
        }
        #expect(error.status == 400)
        #expect(error.message.hasPrefix("_at must be a whole number"))
        #expect(try RowPosition.parse(query: [:]) == nil)
        #expect(try RowPosition.parse(query: ["_at": "999999999999"]) == RowPosition(index: RowPosition.maxIndex))
    }
}

private extension String {
    func ifEmpty(_ other: String) -> String { isEmpty ? other : self }
}
