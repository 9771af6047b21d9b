import Foundation
import GRDB
import TableStore
import HostileTextSupport
import PropertyBased
@testable import TablePagesDatabase
import Testing

@Suite struct DatabaseValueCodingTests {
    static let values = zip(Gen.int(in: 0...4), HostileText.text, Gen<UInt64>.value(in: 0...UInt64.max), Gen<UInt8>.value(in: 0...255).array(of: 0...6)).map { kind, text, bits, bytes -> SQLValue in
        switch kind {
        case 0: return .null
        case 1: return SQLValue.integer(Int64(bitPattern: bits))
        case 2: return Double(bitPattern: bits).isFinite ? SQLValue.real(Double(bitPattern: bits)) : SQLValue.real(0.5)
        case 3: return SQLValue.text(text + [".json", ".csv", "", "a.b"][Int(bits % 4)])
        default: return SQLValue.blob(Data(bytes))
        }
    }

    @Test func anyKeyReadsBackAndItsIdNeverEndsLikeAFormat() async {
        await propertyCheckFailingOnThrow(input: Self.values.array(of: 1...3)) { key in
            let id = DatabaseValueCoding.encode(key)
            #expect(DatabaseValueCoding.decode(id, count: key.count) == key)
            // No `.json` (or other dotted) ending a router could take for a format of another row.
            for suffix in [".json", ".csv", ".ndjson"] { #expect(!id.hasSuffix(suffix), "\(id)") }
        }
    }

    @Test func textThatWouldFuseWithTheTypeLetterOrTheCommaReadsBack() {
        // U+200D joins the type letter into one character; U+0600 (a prepend character) joins
        // the comma after it. Found by the property test above.
        for key in [[SQLValue.text("\u{200D}\u{200D}")], [SQLValue.text("a\u{0600}"), SQLValue.text("b")], [SQLValue.text("\u{0301}x"), SQLValue.integer(1)]] {
            #expect(DatabaseValueCoding.decode(DatabaseValueCoding.encode(key), count: key.count) == key)
        }
    }

    @Test func textWithADotIsHexAndTheOldSpellingStillReads() {
        #expect(DatabaseValueCoding.encode([SQLValue.text("report.json")]) == "h" + DatabaseValueCoding.hex(Array("report.json".utf8)))
        #expect(DatabaseValueCoding.decode("sa.b", count: 1) == [SQLValue.text("a.b")])
    }
}
