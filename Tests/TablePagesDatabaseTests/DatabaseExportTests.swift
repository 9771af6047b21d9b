import Foundation
import GRDB
import HostileTextSupport
@testable import MicroHTTP
import PropertyBased
import TableKit
@testable import TablePagesTestSupport
import TableStore
import Testing
@testable import TablePages
@testable import TablePagesDatabase

@Suite("Database exports and facets", .shrinking(false))
struct DatabaseExportTests {
    /// RFC 4180 read back byte by byte: fields, quoted or not, rows ending in CRLF. Written here,
    /// apart from the encoder, so a shared mistake cannot hide.
    static func parseCSV(_ bytes: [UInt8]) -> [[[UInt8]]] {
        var rows: [[[UInt8]]] = []
        var row: [[UInt8]] = []
        var field: [UInt8] = []
        var index = 0
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") && field.isEmpty {
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                row.append(field)
                field = []
            } else if byte == 0x0d, index + 1 < bytes.count, bytes[index + 1] == 0x0a {
                row.append(field)
                rows.append(row)
                row = []
                field = []
                index += 1
            } else {
                field.append(byte)
            }
            index += 1
        }
        return rows
    }

    @Test("Arbitrary text (quotes, commas, CR, LF, any scalar) survives a CSV row and reads back whole")
    func csvRoundTrip() async {
        await propertyCheckFailingOnThrow(input: HostileText.text.array(of: 1...4)) { texts in
            // HostileText has no comma; every other value gets some.
            let values = texts.enumerated().map { $0.offset % 2 == 0 ? $0.element : "," + $0.element + ",\"," }
            var out = OutputBuffer()
            DatabaseExportEncoding.appendCSVRow(ArraySlice(values.map(SQLValue.text)), to: &out)
            let rows = Self.parseCSV(out.bytes)
            #expect(rows.count == 1)
            #expect(rows.first == values.map { Array($0.utf8) })
        }
    }

    @Test("CSV writes NULL as an empty field, empty text as \"\", numbers as SQLite has them, and a blob as \\x and hex; the header quotes names")
    func csvValues() {
        var out = OutputBuffer()
        DatabaseExportEncoding.appendCSVHeader(["id", "a,b", "say \"hi\""], to: &out)
        DatabaseExportEncoding.appendCSVRow([SQLValue.integer(1), SQLValue.null, SQLValue.real(2.5), SQLValue.blob(Data([0, 255]))][...], to: &out)
        DatabaseExportEncoding.appendCSVRow([SQLValue.text(""), SQLValue.null, SQLValue.blob(Data()), SQLValue.text("x")][...], to: &out)
        #expect(out.string == "id,\"a,b\",\"say \"\"hi\"\"\"\r\n1,,2.5,\\x00ff\r\n\"\",,\\x,x\r\n")
    }

    @Test("In a one-column table NULL, empty text and an empty blob are three lines, none of them empty")
    func csvOneColumn() {
        let lines = [SQLValue.null, SQLValue.text(""), SQLValue.blob(Data())].map { value in
            var out = OutputBuffer()
            DatabaseExportEncoding.appendCSVRow([value][...], to: &out)
            return out.string
        }
        #expect(lines == ["\\N\r\n", "\"\"\r\n", "\\x\r\n"])
    }

    @Test("NDJSON rows carry typed values, whole: integers, reals, null, text of any length, base64 blobs")
    func ndjsonTypedValues() async throws {
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            var out = OutputBuffer()
            let values: [SQLValue] = [SQLValue.integer(Int64.max), SQLValue.real(-0.125), .null, SQLValue.text(text), SQLValue.blob(Data([1, 2, 3]))]
            // The text names its own column too, prefixed so that it never repeats another's name ("i").
            let name = "t:" + text
            DatabaseExportEncoding.appendNDJSONRow(columns: ["i", "r", "n", name, "b"], values: values[...], to: &out)
            #expect(out.bytes.last == 0x0a)
            #expect(out.bytes.dropLast().contains(0x0a) == false, "one line per row")
            let object = try JSONTree.parse(Array(out.bytes.dropLast()))
            guard case .number(let real)? = object["r"], case .number(let integer)? = object["i"] else {
                Issue.record("numbers are not JSON numbers")
                return
            }
            #expect(real == -0.125 && integer == 9.223372036854775807e18)
            #expect(object["n"]?.isNull == true)
            #expect(object[name]?.utf8 == Array(text.utf8), "text is whole, not cut to a page's bound")
            #expect(object["b"]?.utf8 == Array("AQID".utf8))
        }
        var out = OutputBuffer()
        DatabaseExportEncoding.appendNDJSONRow(columns: ["i"], values: [SQLValue.integer(Int64.max)][...], to: &out)
        #expect(out.string == "{\"i\":9223372036854775807}\n", "integers exactly, beyond a double's precision")
    }

    /// A store over a table of 2,500 rows with NULLs, duplicates and hostile text.
    static func withTable<T>(_ body: (Store, DatabaseTableSchema) throws -> T) throws -> T {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, kind TEXT, n INTEGER, score REAL)")
            let kinds: [DatabaseValue] = [.null, "a".databaseValue, "b\"'<,\n".databaseValue, "\u{1F469}\u{200D}\u{1F467}".databaseValue, 7.databaseValue]
            for id in 1...2500 {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?)", arguments: [id, kinds[id * id % kinds.count], id % 40 == 0 ? nil : id % 47, Double(id % 3) / 2])
            }
        }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schema = try #require(try store.read { try DatabaseTableSchema.all(in: $0) }.first)
        return try body(store, schema)
    }

    @Test("Facet counts equal SQLite's GROUP BY, NULL included, with the variant's filters; more than 30 values are cut and say so")
    func facetCounts() throws {
        try Self.withTable { store, schema in
            var query = DatabaseTableQuery(variant: [:], schema: schema)
            query.facets = ["kind", "n"]
            query.filters = [DatabaseFilter(column: "score", comparison: .exact, value: "0.5")]
            let facets = try DatabaseTableReader(store: store, schema: schema, query: query).facets()
            #expect(facets.map(\.column) == ["kind", "n"])
            for facet in facets {
                let expected = try store.read { db in
                    try GRDB.Row.fetchAll(db, sql: "SELECT \(facet.column), count(*) FROM t WHERE score = 0.5 GROUP BY 1 ORDER BY 2 DESC, 1")
                        .map { DatabaseFacet.Value(value: SQLValue($0[0] as DatabaseValue), count: $0[1]) }
                }
                #expect(facet.values == Array(expected.prefix(DatabaseTableReader.maxFacetValues)))
                #expect(facet.isTruncated == (expected.count > DatabaseTableReader.maxFacetValues))
            }
            #expect(facets[0].values.contains { $0.value.isNull }, "NULL is counted as a value")
            #expect(facets[1].isTruncated && facets[1].values.count == 30, "47 values of n and NULL, cut to 30")
            let json = DatabaseFacet.jsonProperty(facets)
            guard case .object(let columns) = json.value, case .object(let kind) = columns[0].value else {
                Issue.record("facets is not an object of objects")
                return
            }
            #expect(kind.map(\.name) == ["type", "values", "truncated"])
        }
    }

    @Test("An export reads every row of the variant across chunks, in the page's order, grouped and sorted")
    func exportAcrossChunks() throws {
        try Self.withTable { store, schema in
            for (variant, orderBy) in [([:], "id"), (["sort": "-score"], "score DESC, id DESC"), (["group": "kind", "sort": "n"], "kind, n, id")] {
                var query = DatabaseTableQuery(variant: variant, schema: schema)
                query.filters.append(DatabaseFilter(column: "n", comparison: .exact, value: "3"))
                let reader = DatabaseTableReader(store: store, schema: schema, query: query)
                let exporter = DatabaseTableExporter(reader: reader, format: .ndjson)
                var ids: [Int] = []
                var chunks = 0
                while let chunk = try exporter.nextChunk() {
                    chunks += 1
                    for line in chunk.split(separator: 0x0a) {
                        guard case .number(let id)? = try JSONTree.parse(Array(line))["id"] else {
                            Issue.record("a line without an id")
                            continue
                        }
                        ids.append(Int(id))
                    }
                }
                let expected = try store.read { try Int.fetchAll($0, sql: "SELECT id FROM t WHERE n = 3 ORDER BY \(orderBy)") }
                #expect(ids == expected, "\(variant)")
            }
            let all = DatabaseTableExporter(reader: DatabaseTableReader(store: store, schema: schema, query: DatabaseTableQuery(variant: ["group": "kind"], schema: schema)), format: .csv)
            var rows = 0
            var chunks = 0
            while let chunk = try all.nextChunk() {
                chunks += 1
                rows += Self.parseCSV(chunk).count
            }
            #expect(rows == 2501, "a header and every row")
            #expect(chunks >= 3, "read 1,000 rows at a time")
        }
    }

    @Test("Content-Disposition keeps ASCII names, replaces what would break the quoted form, and adds filename* for the rest")
    func contentDisposition() {
        #expect(ContentDisposition.attachment(filename: "items.csv") == "attachment; filename=\"items.csv\"")
        #expect(ContentDisposition.attachment(filename: "a\"b\\c/%.csv") == "attachment; filename=\"a_b_c__.csv\"; filename*=UTF-8''a%22b%5Cc%2F%25.csv")
        #expect(ContentDisposition.attachment(filename: "caf\u{E9}\r\n.csv") == "attachment; filename=\"caf____.csv\"; filename*=UTF-8''caf%C3%A9%0D%0A.csv")
    }

    @Test("A route pattern :name.ext matches a segment with that extension and captures the rest")
    func suffixedRoutePattern() {
        let pattern = RoutePattern(PageContract.csvExportPattern)
        #expect(pattern.description == "/pages/:page.csv")
        #expect(pattern.match(["pages", "items.csv"]) == ["page": "items"])
        #expect(pattern.match(["pages", "a.b.csv"]) == ["page": "a.b"])
        #expect(pattern.match(["pages", ".csv"]) == nil)
        #expect(pattern.match(["pages", "items"]) == nil)
        #expect(pattern.match(["pages", "items.csv", "x"]) == nil)
    }
}
