import Escaping
import Foundation
import GRDB
import HTTPTestSupport
import MicroHTTP
@testable import TablePagesTestSupport
import TableStore
@testable import TablePages
@testable import TablePagesDatabase
import Testing

@Suite("Any SQLite table as a page")
struct DatabaseTablePagesTests {
    /// The ids SQLite lists for `sql`, as the pages name them.
    static func expectedIDs(_ database: TestDatabase, _ sql: String) throws -> [String] {
        let queue = try DatabaseQueue(path: database.path)
        defer { try? queue.close() }
        return try queue.read { try Int64.fetchAll($0, sql: sql) }.map(String.init)
    }

    @Test(arguments: [
        ("", "SELECT id FROM items ORDER BY id"),
        ("sort=score", "SELECT id FROM items ORDER BY score, id"),
        ("sort=-score", "SELECT id FROM items ORDER BY score DESC, id DESC"),
        ("sort=name", "SELECT id FROM items ORDER BY name, id"),
        ("category=c3&sort=-score", "SELECT id FROM items WHERE category = 'c3' ORDER BY score DESC, id DESC"),
    ])
    func keysetPagingVisitsEveryRowOnceInOrder(query: String, sql: String) async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        let expected = try Self.expectedIDs(database, sql)
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try jsonObject(try await connection.request("GET", "/pages/items.json?limit=97" + (query.isEmpty ? "" : "&" + query)))
            let section = try #require(jsonSections(page).first)
            #expect(section["rowCount"] as? Int == expected.count)
            let ids = try await followNextLinks(connection, from: section)
            #expect(ids.count == expected.count)
            #expect(Set(ids).count == ids.count, "no row twice")
            #expect(ids == expected)
        }
    }

    @Test func groupedPagesPageEachSectionByKeyset() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try jsonObject(try await connection.request("GET", "/pages/items.json?group=category&sort=-score&limit=50"))
            let sections = jsonSections(page)
            #expect(sections.map { $0["id"] as? String } == ["n", "sc0", "sc1", "sc2", "sc3", "sc4"])
            #expect(sections.first?["header"] as? String == "category: NULL")
            for section in sections {
                let id = try #require(section["id"] as? String)
                let filter = id == "n" ? "category IS NULL" : "category = '\(id.dropFirst())'"
                let expected = try Self.expectedIDs(database, "SELECT id FROM items WHERE \(filter) ORDER BY score DESC, id DESC")
                #expect(try await followNextLinks(connection, from: section) == expected, "section \(id)")
            }
        }
    }

    @Test func withoutRowidTablesPageByTheirEncodedPrimaryKey() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            for query in ["", "&sort=-note"] {
                let page = try jsonObject(try await connection.request("GET", "/pages/pairs.json?limit=7" + query))
                let ids = try await followNextLinks(connection, from: try #require(jsonSections(page).first))
                #expect(ids.count == 300)
                #expect(Set(ids).count == 300)
                // Every id addresses its row's next page, commas and control characters included.
                #expect(ids.contains("h612c62,i4"), "'a,b' is hex-encoded")
            }
            let first = try jsonObject(try await connection.request("GET", "/pages/pairs.json?limit=1"))
            let row = try #require((jsonSections(first).first?["rows"] as? [[String: Any]])?.first)
            #expect((row["fields"] as? [String: Any])?["label"] as? String == "a,b")
            #expect((row["fields"] as? [String: Any])?["n"] as? Int == 4)
        }
    }

    @Test func theHTMLPageHoldsTheFirstRowsAndSizesThePlaceholderForTheRest() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try await connection.request("GET", "/pages/items")
            #expect(page.status == 200)
            #expect(page.text.components(separatedBy: "data-row=").count - 1 == 100)
            #expect(page.text.contains(#"href="/pages/items/sections/all?after=100&amp;limit=100" data-remaining="2245" data-estimated-row-height="#))
            // A page deep in the table counts what follows it too.
            let deep = try await connection.request("GET", "/pages/items/sections/all?after=2000&limit=100")
            #expect(deep.text.contains(#"after=2100&amp;limit=100" data-remaining="245""#))
            let index = try await connection.request("GET", "/")
            #expect(index.text.contains("/pages/items"))
            #expect(index.text.contains("/pages/pairs"))
        }
    }

    @Test func jsonRowsCarryTheColumnValues() async throws {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT, b BLOB, z)")
            try db.execute(sql: "INSERT INTO t VALUES (1, 42, 2.5, ?, x'00ff10', NULL)", arguments: [String(repeating: "long ", count: 100)])
        }
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try jsonObject(try await connection.request("GET", "/pages/t.json"))
            let row = try #require((jsonSections(page).first?["rows"] as? [[String: Any]])?.first)
            #expect(row["id"] as? String == "1")
            #expect(row["kind"] as? String == "record")
            let fields = try #require(row["fields"] as? [String: Any])
            #expect(fields["n"] as? Int == 42)
            #expect(fields["r"] as? Double == 2.5)
            #expect((fields["s"] as? String)?.utf8.count == DatabaseRecordCell.maxShownBytes, "JSON cuts long text by bytes")
            #expect((fields["s"] as? String)?.hasSuffix("lon\u{2026}") == true)
            #expect(fields["b"] as? String == "AP8Q", "blobs are base64")
            #expect(fields["z"] is NSNull)
            let html = try await connection.request("GET", "/pages/t").text
            #expect(html.contains(#"<span class="tk-field-value tk-number">42</span>"#))
            #expect(html.contains(#"<span class="tk-field-value tk-null">NULL</span>"#))
            #expect(html.contains(#"<a class="tk-field-value tk-blob" href="/pages/t/rows/1" title="Show the whole value">3 bytes</a>"#), "a blob links to its row")
            #expect(html.contains(#"<a class="tk-field-value tk-cut" href="/pages/t/rows/1" title="Show the whole value">long "#), "cut text links to its row")
            #expect(html.contains("lon\u{2026}</a>") && !html.contains(String(repeating: "long ", count: 51)), "HTML cuts long text")
        }
    }

    @Test func aTextPrimaryKeyOrdersTheDefaultPageWhileRowsKeepTheirRowid() async throws {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE codes (code TEXT PRIMARY KEY, name TEXT); INSERT INTO codes VALUES ('b', 'B'), ('c', 'C'), ('a', 'A')")
        }
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try jsonObject(try await connection.request("GET", "/pages/codes.json?limit=2"))
            let section = try #require(jsonSections(page).first)
            let rows = try #require(section["rows"] as? [[String: Any]])
            #expect(rows.compactMap { ($0["fields"] as? [String: Any])?["code"] as? String } == ["a", "b"])
            #expect(try await followNextLinks(connection, from: section) == ["3", "1", "2"])
        }
    }

    @Test func hostileTableNamesColumnNamesAndCellTextsAreShownAsText() async throws {
        let table = #"we"ird <script>alert(1)</script> a/b%2F ü"#
        let column = #"<b>"col"</b> ✓"#
        let text = "<script>alert(\"x\")</script> & 'single' \u{2028}"
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE \(SQLIdentifier.quoted(table)) (\(SQLIdentifier.quoted(column)) TEXT, \"a b\" INTEGER)")
            try db.execute(sql: "INSERT INTO \(SQLIdentifier.quoted(table)) VALUES (?, 1), ('plain', 2)", arguments: [text])
        }
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let index = try await connection.request("GET", "/")
            #expect(!index.text.contains("<script>alert"))
            #expect(index.text.contains("/pages/" + TildeEncoding.encode(table)))

            // The index's link, and the name percent-encoded as a hand-written link would have it.
            #expect(try await connection.request("GET", "/pages/" + TildeEncoding.encode(table)).status == 200)
            let path = "/pages/" + PercentEncoding.encode(table)
            let page = try await connection.request("GET", path + "?sort=-" + PercentEncoding.encode(column))
            #expect(page.status == 200)
            #expect(!page.text.contains("<script>alert"))
            #expect(!page.text.contains("<b>"))
            #expect(page.text.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;single&#39; &#x2028;"))
            #expect(page.text.contains("&lt;b&gt;&quot;col&quot;&lt;/b&gt; ✓"))
            #expect(page.text.contains("<h1 class=\"tk-title\">we&quot;ird &lt;script&gt;alert(1)&lt;/script&gt; a/b%2F ü</h1>"))

            let json = try await connection.request("GET", path + "?" + PercentEncoding.encode(column) + "=" + PercentEncoding.encode(text), headers: [("Accept", "application/json")])
            #expect(json.status == 200)
            #expect(!json.text.contains("<"), "JSON escapes angle brackets")
            let object = try jsonObject(json)
            #expect(object["title"] as? String == table)
            let rows = try #require(jsonSections(object).first?["rows"] as? [[String: Any]])
            #expect(rows.count == 1)
            #expect((rows.first?["fields"] as? [String: Any])?[column] as? String == text)
        }
    }

    @Test func aWriteByTheSqlite3ShellReachesASubscriberAsAPatchWithinASecond() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/items/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            let clock = ContinuousClock()
            let start = clock.now
            try database.shell("UPDATE items SET name = 'changed by sqlite3' WHERE id = 2")
            let text = try await stream.readStream(until: { $0.contains("changed by sqlite3") }, timeout: .seconds(5))
            let elapsed = clock.now - start
            let event = try #require(events(in: text).first { $0.contains("changed by sqlite3") })
            #expect(event.contains(#""op":"replace","section":"all","row":"2""#))
            #expect(event.components(separatedBy: #""op":"#).count == 2, "only the changed row")
            #expect(elapsed < .seconds(1), "took \(elapsed)")
        }
    }

    @Test func aReadOnlyDatabaseRefusesWrites() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, store in
            #expect(throws: (any Error).self) { try store.write { try $0.execute(sql: "DELETE FROM items WHERE id = 1") } }
            let connection = try await TestConnection(port: server.port)
            // A database table's pages are read-only (PageAccess.everyoneReads): refused before the store is asked.
            #expect(try await connection.request("DELETE", "/pages/items/rows/1").status == 403)
            #expect(try await connection.request("POST", "/pages/items/rows/1/select").status == 403)
            let rows = try await connection.request("GET", "/pages/items.json?limit=1").text
            #expect(rows.contains(#""id":"1""#))
        }
    }

    @Test(arguments: [
        "/pages/items?sort=nope", "/pages/items?sort=-", "/pages/items?group=nope", "/pages/items?nope=1",
        "/pages/items?limit=0", "/pages/items?limit=1001", "/pages/items?limit=ten",
        "/pages/items/sections/all?after=abc", "/pages/items/sections/all?limit=5000",
        "/pages/pairs/sections/all?after=i1",
    ])
    func badParametersAre400(target: String) async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let response = try await connection.request("GET", target, headers: [("Accept", "application/json")])
            #expect(response.status == 400, "\(target): \(response.text)")
            #expect(response.text.contains(#""error""#))
        }
    }

    @Test func unknownSectionsAre404() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/pages/items/sections/other").status == 404)
            #expect(try await connection.request("GET", "/pages/items/sections/zz?group=category").status == 404)
        }
    }

    @Test func filterValuesDoNotGrowTheLiveTablesWithoutBound() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        var settings = LiveSettings()
        settings.maxVariantsPerPage = 4
        try await withDatabaseSite(database, settings: settings) { server, site, _ in
            let connection = try await TestConnection(port: server.port)
            for value in 0..<20 {
                #expect(try await connection.request("GET", "/pages/items.json?score=\(value)").status == 200)
            }
            #expect(site.hosts.all.count <= 4)
        }
    }
}

@Suite("Database table schemas")
struct DatabaseTableSchemaTests {
    @Test func aTableWithNoWayToAddressItsRowsIsLeftOut() throws {
        let queue = try DatabaseQueue()
        let names = try queue.write { db in
            try db.execute(sql: "CREATE TABLE shadow(rowid, _rowid_, oid, v)")
            try db.execute(sql: "CREATE TABLE plain(v)")
            return try DatabaseTableSchema.all(in: db).map(\.name)
        }
        #expect(names == ["plain"])
    }
}
