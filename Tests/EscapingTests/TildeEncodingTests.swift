import Escaping
import HostileTextSupport
import PropertyBased
import Testing

@Suite struct TildeEncodingTests {
    @Test func anyNameReadsBackAsItself() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { name in
            #expect(TildeEncoding.decode(TildeEncoding.encode(name)) == name)
        }
    }

    @Test func anEncodingHoldsOnlyLettersDigitsAndItsOwnMarks() async {
        // No `.`, `/`, `%`, `?`, `#`: a name never reads as a format suffix, a path or a query.
        await propertyCheckFailingOnThrow(input: HostileText.text) { name in
            let encoded = TildeEncoding.encode(name)
            #expect(encoded.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "~"), UInt8(ascii: "+"): true
                default: false
                }
            })
            // Percent-encoding (a path segment's) leaves it as it is.
            #expect(URLComponentEncoding.encode(encoded) == encoded.replacingOccurrences(of: "+", with: "%2B"))
        }
    }

    @Test func encodesAsDatasetteDoes() {
        // Datasette 0.65.5's `tilde_encode` of the same names.
        #expect(TildeEncoding.encode("table/with/slashes.csv") == "table~2Fwith~2Fslashes~2Ecsv")
        #expect(TildeEncoding.encode("odd %?# name ü") == "odd+~25~3F~23+name+~C3~BC")
        #expect(TildeEncoding.encode("a~b.json") == "a~7Eb~2Ejson")
        #expect(TildeEncoding.encode("plain_name-1") == "plain_name-1")
    }

    @Test func decodesAsDatasetteDoes() {
        #expect(TildeEncoding.decode("a~2fb") == "a/b")
        #expect(TildeEncoding.decode("a+b") == "a b")
        // Not an escape: kept, as Datasette's unquote keeps it; `%` is never an escape.
        #expect(TildeEncoding.decode("a~zz~") == "a~zz~")
        #expect(TildeEncoding.decode("100%25") == "100%25")
        // Bytes that are no UTF-8.
        #expect(TildeEncoding.decode("~FF") == nil)
    }
}
