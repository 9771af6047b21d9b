import Foundation
import GRDB
import HostileTextSupport
import PropertyBased
@testable import TablePagesDatabase
import Testing

@Suite struct DatabaseValueCodingTests {
    static let values = zip(Gen.int(in: 0...4), HostileText.text, Gen<UInt64>.value(in: 0...UInt64.max), Gen<UInt8>.value(in: 0...255).array(of: 0...6)).map { kind, text, bits, bytes -> DatabaseValue in
        switch kind {
        case 0: return .null
        case 1: return Int64(bitPattern: bits).databaseValue
        case 2: return Double(bitPattern: bits).isFinite ? Double(bitPattern: bits).databaseValue : 0.5.databaseValue
        case 3: return (text + [".json", ".csv", "", "a.b"][Int(bits % 4)]).databaseValue
        default: return Data(bytes).databaseValue
        }
    }

    @Test func anyKeyReadsBackAndItsIdNeverEndsLikeAFormat() async {
        await propertyCheck(input: Self.values.array(of: 1...3)) { key in
            let id = DatabaseValueCoding.encode(key)
            #expect(DatabaseValueCoding.decode(id, count: key.count) == key)
            // No `.json` (or other dotted) ending a router could take for a format of another row.
            for suffix in [".json", ".csv", ".ndjson"] { #expect(!id.hasSuffix(suffix), "\(id)") }
        }
    }

    @Test func textThatWouldFuseWithTheTypeLetterOrTheCommaReadsBack() {
        // U+200D joins the type letter into one character; U+0600 (a prepend character) joins
        // the comma after it. Found by the property test above.
        for key in [["\u{200D}\u{200D}".databaseValue], ["a\u{0600}".databaseValue, "b".databaseValue], ["\u{0301}x".databaseValue, 1.databaseValue]] {
            #expect(DatabaseValueCoding.decode(DatabaseValueCoding.encode(key), count: key.count) == key)
        }
    }

    @Test func textWithADotIsHexAndTheOldSpellingStillReads() {
        #expect(DatabaseValueCoding.encode(["report.json".databaseValue]) == "h" + DatabaseValueCoding.hex(Array("report.json".utf8)))
        #expect(DatabaseValueCoding.decode("sa.b", count: 1) == ["a.b".databaseValue])
    }
}
