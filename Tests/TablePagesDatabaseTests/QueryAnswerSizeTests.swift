import Foundation
import HostileTextSupport
import MicroHTTP
import PropertyBased
@testable import TablePagesDatabase
import TableKit
import TableStore
import Testing

@Suite struct QueryAnswerSizeTests {
    static let value = zip(Gen.int(in: 0...5), Gen.int(in: Int.min...Int.max), HostileText.text, Gen.int(in: 0...255).array(of: 0...300))
        .map { kind, number, text, bytes -> SQLValue in
            switch kind {
            case 0: .integer(Int64(number))
            case 1: .real(Double(number) / 7)
            case 2, 3: .text(text)
            case 4: .blob(Data(bytes.map(UInt8.init)))
            default: .null
            }
        }

    /// Each format's bytes for one cell: the answer with the cell, less the answer without it.
    static func encodings(of value: SQLValue, column: String) -> [Int] {
        func json(_ shape: QueryJSON.Shape, _ rows: [[SQLValue]]) -> Int {
            let context = QueryJSON.Context(database: "d", queryName: nil, sql: "", params: [], shape: shape, allowsSQL: true, newlineDelimited: false)
            return QueryJSON.document(QueryResult(columns: [column], rows: rows, truncated: false), error: nil, context: context).utf8.count
        }
        func csv(_ rows: [[SQLValue]]) -> Int {
            var out = OutputBuffer(capacity: 64)
            for row in rows { DatabaseExportEncoding.appendCSVRow(row[...], to: &out) }
            return out.count
        }
        func html(_ rows: [[SQLValue]]) -> Int {
            let content = QueryDocument.Content(
                title: "t", description: nil, path: "/-/sql", sql: "", editable: true, parameters: [],
                result: QueryResult(columns: [column], rows: rows, truncated: false), error: nil, query: "", livePath: nil)
            return QueryDocument.response(content, siteTitle: "s", status: 200).bodyBytes.count
        }
        let one = [[value]], two = [[value], [value]]
        return [json(.arrays, two) - json(.arrays, one), json(.objects, two) - json(.objects, one),
                json(.array, two) - json(.array, one), csv(two) - csv(one), html(two) - html(one)]
    }

    @Test func aCellCountsAtLeastWhatAnyAnswerWritesForIt() async {
        await propertyCheckFailingOnThrow(input: Self.value, HostileText.text) { value, column in
            let counted = QueryAnswerSize.cell(value, column: column)
            for written in Self.encodings(of: value, column: column) {
                #expect(written <= counted, "\(value) under \(column): \(written) > \(counted)")
            }
        }
    }

    @Test func zeroBytesCountAsTheSixByteEscapesJSONWritesForThemAndTheHTMLBesides() {
        #expect(QueryAnswerSize.of(.blob(Data(count: 1000))) == 6 * 1000 + 1000 + 2)
        #expect(QueryAnswerSize.of(.text(String(repeating: "\"", count: 10))) == 20 + 60 + 2)
        #expect(QueryAnswerSize.of(.blob(Data([0xff, 0xfe, 0xfd]))) == 4 + 32)
    }
}
