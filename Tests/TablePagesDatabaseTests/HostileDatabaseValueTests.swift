import Foundation
import GRDB
@testable import TablePagesTestSupport
import TableStore
import HostileTextSupport
import HTTPTestSupport
import PropertyBased
import TableKit
import Testing
@testable import TablePages
@testable import TablePagesDatabase

@Suite("Database values and names, arbitrary", .shrinking(false))
struct HostileDatabaseValueTests {
    /// A record cell rendered as the one row of a table, in HTML and JSON.
    static func render(_ cell: TableCell) throws -> (html: [UInt8], json: JSONTree) {
        let root = CascadingRootTableDelegate(childDelegates: [StaticSection(id: "s", rows: [StaticRow(id: "r", cell: cell)])])
        let table = TableAdapter(root: root)
        table.register(DatabaseRecordCell.kind)
        let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/t"))
        var html = OutputBuffer()
        try renderer.renderRow("r", as: .html, into: &html)
        var json = OutputBuffer()
        try renderer.renderRow("r", as: .json, into: &json)
        return (html.bytes, try JSONTree.parse(json.bytes))
    }

    @Test("Text values are cut by bytes in a page, whole on the row's URL, escaped in HTML and whole in JSON",
          arguments: [DatabaseRecordCell.Extent.page, .row])
    func textValues(extent: DatabaseRecordCell.Extent) async {
        let bound = extent == .page ? DatabaseRecordCell.maxShownBytes : DatabaseRecordCell.maxRowValueBytes
        await propertyCheckFailingOnThrow(input: HostileText.text.array(of: 4)) { texts in
            // Distinct column names, as a table's are.
            let columns = texts.indices.map { "\($0)" + texts[$0] }
            let cell = DatabaseRecordCell.cell(columns: columns, values: texts.map(SQLValue.text), extent: extent)
            let (html, json) = try Self.render(cell)
            for (position, (column, text)) in zip(columns, texts).enumerated() {
                let shown = try #require(json["fields"]?[column]?.utf8)
                if text.utf8.count <= bound {
                    #expect(shown == Array(text.utf8), "a value within the bound is whole")
                } else {
                    let ellipsis = Array("\u{2026}".utf8)
                    #expect(shown.count <= bound && shown.suffix(3) == ellipsis[...], "a long value is cut within the bound")
                    #expect(Array(text.utf8.prefix(shown.count - 3)) == Array(shown.dropLast(3)), "to a prefix of the value")
                }
                let escapedColumn = String(decoding: ReferenceEscaping.html(column), as: UTF8.self)
                let isCut = text.utf8.count > bound
                // A cut value links to the row's own URL, where it is whole.
                // The first value, the key's, links to the row's own URL too.
                let isKey = position == 0 && !isCut
                let value = isCut ? "<a class=\"tk-field-value tk-cut\" href=\"/pages/t/rows/r\" title=\"Show the whole value\">"
                    : isKey ? "<a class=\"tk-field-value tk-key\" href=\"/pages/t/rows/r\" title=\"Show this row\">" : "<span class=\"tk-field-value\">"
                let open = "data-field=\"\(escapedColumn)\"><span class=\"tk-field-name\">\(escapedColumn)</span> " + value
                #expect(ReferenceEscaping.enclosed(in: html, between: open, and: isCut || isKey ? "</a>" : "</span>") == ReferenceEscaping.html(String(decoding: shown, as: UTF8.self)))
            }
        }
    }

    @Test("Blobs show their size (and first bytes in hex on the row's URL) and base64 within the bound",
          arguments: [0, 1, 3, 190, 191, 192, 193, 2000])
    func blobValues(size: Int) throws {
        let blob = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for extent in [DatabaseRecordCell.Extent.page, .row] {
            let field = DatabaseRecordCell.field("b", SQLValue.blob(blob), extent: extent)
            guard case .string(let encoded)? = field.json else {
                Issue.record("a blob's JSON is a string")
                continue
            }
            let bound = extent == .page ? DatabaseRecordCell.maxShownBytes : DatabaseRecordCell.maxRowValueBytes
            #expect(encoded.utf8.count <= bound)
            let isCut = encoded.hasSuffix("\u{2026}")
            let decoded = try #require(Data(base64Encoded: isCut ? String(encoded.dropLast()) : encoded))
            #expect(isCut ? blob.starts(with: decoded) && decoded.count < blob.count : decoded == blob)
            #expect(field.value.hasPrefix(size == 1 ? "1 byte" : "\(size) bytes"))
            if extent == .row && size > 1 {
                #expect(field.value.hasPrefix("\(size) bytes: " + "00070e15".prefix(2 * size)))
            }
        }
    }

    @Test("A quote followed by a combining mark is doubled in a quoted identifier")
    func quoteWithCombiningMark() {
        #expect(SQLIdentifier.quoted("a\"\u{0301}b") == "\"a\"\"\u{0301}b\"")
    }

    @Test("Any table and column name, quoted, creates, fills and reads back that very name in SQLite")
    func identifiersRoundTrip() async {
        await propertyCheckFailingOnThrow(input: HostileText.text, HostileText.text) { table, column in
            // SQL text ends at NUL for SQLite; a name cannot hold one. "sqlite_" names are reserved.
            let tableName = "t" + String(String.UnicodeScalarView(table.unicodeScalars.filter { $0 != "\u{0}" }))
            let columnName = "c" + String(String.UnicodeScalarView(column.unicodeScalars.filter { $0 != "\u{0}" }))
            let quotedTable = SQLIdentifier.quoted(tableName)
            let quotedColumn = SQLIdentifier.quoted(columnName)
            let queue = try DatabaseQueue()
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE \(quotedTable) (\(quotedColumn) INTEGER)")
                try db.execute(sql: "INSERT INTO \(quotedTable) (\(quotedColumn)) VALUES (42)")
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                #expect(tables.map { Array($0.utf8) } == [Array(tableName.utf8)])
                let columns = try GRDB.Row.fetchAll(db, sql: "PRAGMA table_info(\(quotedTable))").map { $0["name"] as String }
                #expect(columns.map { Array($0.utf8) } == [Array(columnName.utf8)])
                #expect(try Int.fetchOne(db, sql: "SELECT \(quotedColumn) FROM \(quotedTable)") == 42)
            }
        }
    }

    @Test("A database page cuts a long value and blob; the row's own URL has them whole, escaped")
    func rowURLShowsTheWholeValue() async throws {
        let long = String(repeating: "<b>\"é\u{0301}&", count: 1000)
        let blob = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0) })
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, b BLOB)")
            try db.execute(sql: "INSERT INTO t VALUES (1, ?, ?)", arguments: [long, blob])
        }
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try JSONTree.parse(try await connection.request("GET", "/pages/t.json").body)
            let fields = try #require(page["sections"]?[0]?["rows"]?[0]?["fields"])
            let shown = try #require(fields["s"]?.utf8)
            #expect(shown.count <= DatabaseRecordCell.maxShownBytes && shown.suffix(3) == Array("\u{2026}".utf8)[...])
            #expect(try #require(fields["b"]?.utf8).count <= DatabaseRecordCell.maxShownBytes)

            let row = try JSONTree.parse(try await connection.request("GET", "/pages/t/rows/1.json").body)
            #expect(row["fields"]?["s"]?.utf8 == Array(long.utf8))
            #expect(row["fields"]?["b"]?.utf8 == Array(blob.base64EncodedString().utf8))
            let html = try await connection.request("GET", "/pages/t/rows/1").body
            #expect(ReferenceEscaping.contains(html, ReferenceEscaping.html(long)))
            #expect(ReferenceEscaping.contains(html, Array("5000 bytes: 000102030405".utf8)))
            #expect(!ReferenceEscaping.contains(html, Array("<b>".utf8)))
            #expect(try await connection.request("GET", "/pages/t/rows/2.json").status == 404)
        }
    }
}
