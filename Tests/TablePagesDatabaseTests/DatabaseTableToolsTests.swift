import Foundation
import GRDB
import HTTPTestSupport
import MicroHTTP
import TableKit
@testable import TablePagesTestSupport
import TableStore
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// The tools around a database page's rows: the column menu (sort, facet by, hide with `_nocol`,
/// not-null), the suggested facets and their bound, and the row page's JSON link.
@Suite("A database page's tools: column menu, hidden columns, suggested facets")
struct DatabaseTableToolsTests {
    /// A budget no check runs past, however loaded the machine: the default (50 ms) is for pages,
    /// and a test of what is suggested must not depend on the machine's speed (it failed in CI).
    static let unhurried = Duration.seconds(60)

    /// A schema keyed by an `id` column, as a table with `INTEGER PRIMARY KEY` has it.
    static let schema = DatabaseTableSchema(name: "t", columns: ["id", "name", "kind"], key: ["rowid"], keyIsRowID: true, defaultSort: nil, rowIDColumn: "id")

    @Test func nocolHidesColumnsInOneSpellingAndRefusesKeysAndUnknownNames() throws {
        let one = try DatabaseTableQuery.resolve([(name: "_nocol", value: "kind")], schema: Self.schema)
        #expect(one == ["_nocol": "kind"])
        let two = try DatabaseTableQuery.resolve([(name: "_nocol", value: "kind"), (name: "_nocol", value: "name"), (name: "_nocol", value: "kind")], schema: Self.schema)
        #expect(two == ["_nocols": "name,kind"], "in the schema's order, once each")
        #expect(DatabaseTableQuery(variant: two, schema: Self.schema).hiddenColumns == ["name", "kind"], "the variant reads back")
        #expect(try DatabaseTableQuery.resolve(two.map { (name: $0.key, value: $0.value) }, schema: Self.schema) == two)
        #expect(throws: PageDefinition.VariantError.self) { try DatabaseTableQuery.resolve([(name: "_nocol", value: "id")], schema: Self.schema) }
        #expect(throws: PageDefinition.VariantError.self) { try DatabaseTableQuery.resolve([(name: "_nocol", value: "nope")], schema: Self.schema) }
        var query = DatabaseTableQuery(variant: two, schema: Self.schema)
        query.sort = "name"
        #expect(DatasetteQuery.string(query) == "?_sort=name&_nocol=name&_nocol=kind", "links carry it as Datasette spells it")
    }

    @Test func eachColumnHeaderHasAMenuOfLinksThatKeepThePage() {
        var query = DatabaseTableQuery(variant: ["kind": "a"], schema: Self.schema)
        query.facets = ["kind"]
        let html = DatabaseTableViewTests.html(DatabaseTableHeader(schema: Self.schema, query: query, rowCount: 5, facets: []))
        let menus = html.components(separatedBy: "<details class=\"tk-db-menu\">").dropFirst().map { String($0.prefix { $0 != "\u{0}" }.components(separatedBy: "</details>")[0]) }
        #expect(menus.count == 3, "one per column")
        let name = menus.count == 3 ? menus[1] : ""
        #expect(name.hasPrefix(#"<summary title="Column menu" aria-label="name: column menu"><span aria-hidden="true">⋮</span></summary><ul>"#))
        let links = DatabaseTableViewTests.attributes(name, named: "href")
        #expect(links.map(DatabaseTableViewTests.decodedQuery).map { $0.map { "\($0.name)=\($0.value)" } } == [
            ["_sort=name", "kind__exact=a", "_facet=kind"],
            ["_sort_desc=name", "kind__exact=a", "_facet=kind"],
            ["kind__exact=a", "_facet=kind", "_facet=name"],
            ["kind__exact=a", "_facet=kind", "_nocol=name"],
            ["kind__exact=a", "name__notnull=1", "_facet=kind"],
        ])
        #expect(name.contains(">Sort ascending</a>") && name.contains(">Sort descending</a>") && name.contains(">Facet by this</a>")
            && name.contains(">Hide this column</a>") && name.contains(">Show only not-null</a>"))
        #expect(!(menus.first ?? "Hide this column").contains("Hide this column"), "the key names the rows: not hidden")
        #expect(!(menus.last ?? "Facet by this").contains("Facet by this"), "already a facet")
    }

    @Test func aHiddenColumnLeavesTheHeadersAndHasALinkThatShowsItAgain() {
        let query = DatabaseTableQuery(variant: ["_nocol": "name"], schema: Self.schema)
        let html = DatabaseTableViewTests.html(DatabaseTableHeader(schema: Self.schema, query: query, rowCount: 5, facets: []))
        #expect(!html.contains(#"role="columnheader" data-field="name""#))
        #expect(html.contains(#"role="columnheader" data-field="kind""#))
        #expect(html.contains(#"<p class="tk-db-hidden">Hidden columns: <a href="?" title="Show this column">name</a></p>"#))
        #expect(html.contains(#"<option value="name">name</option>"#), "a hidden column can still be filtered")
        #expect(html.contains(#"<a href="/pages/t.csv">CSV</a>"#), "a file has every column")
    }

    @Test func suggestedFacetsAreLinksThatAddTheirFacet() {
        let query = DatabaseTableQuery(variant: ["_sort": "name"], schema: Self.schema)
        let suggestions = [DatabaseFacet.Suggestion(column: "kind"), DatabaseFacet.Suggestion(column: "name"), DatabaseFacet.Suggestion(column: "name", kind: .date)]
        let html = DatabaseTableViewTests.html(DatabaseTableHeader(schema: Self.schema, query: query, rowCount: 5, facets: [], suggestedFacets: suggestions))
        #expect(html.contains(#"<p class="tk-db-suggested">Suggested facets: <a href="?_sort=name&amp;_facet=kind">kind</a>, <a href="?_sort=name&amp;_facet=name">name</a>, <a href="?_sort=name&amp;_facet_date=name">name (date)</a></p>"#))
        let none = DatabaseTableViewTests.html(DatabaseTableHeader(schema: Self.schema, query: query, rowCount: 5, facets: []))
        #expect(!none.contains("Suggested"))
    }

    /// A table of 200 rows: `kind` has 3 values, `flag` 1, `name` 200, `tag` 31, `note` only NULL,
    /// `size` 2 values and NULL.
    static func withTable<T>(_ body: (TestDatabase, Store, DatabaseTableSchema) throws -> T) throws -> T {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, kind TEXT, flag INTEGER, tag INTEGER, note TEXT, size INTEGER)")
            for id in 1...200 {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, 1, ?, NULL, ?)", arguments: [id, "n\(id)", ["a", "b", "c"][id % 3], id % 31, id % 5 == 0 ? nil : id % 2])
            }
        }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schema = try #require(try store.read { try DatabaseTableSchema.all(in: $0) }.first)
        return try body(database, store, schema)
    }

    @Test("Suggested facets: the columns of 2 to 30 distinct values, as SQLite counts them, with the page's filters; none past the budget")
    func suggestions() throws {
        try Self.withTable { _, store, schema in
            let plain = DatabaseTableQuery(variant: [:], schema: schema)
            let reader = DatabaseTableReader(store: store, schema: schema, query: plain)
            #expect(reader.suggestedFacets(rowCount: 200, budget: Self.unhurried).map(\.column) == ["kind", "size"])
            for column in schema.columns {
                let distinct = try store.read { try Int.fetchOne($0, sql: "SELECT count(DISTINCT \(column)) FROM t")! }
                #expect(reader.suggestedFacets(rowCount: 200, budget: Self.unhurried).map(\.column).contains(column) == (2...30).contains(distinct), "\(column): \(distinct)")
            }
            var filtered = plain
            filtered.filters = [DatabaseFilter(column: "tag", comparison: .lt, value: "3")]
            filtered.facets = ["size"]
            let count = try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t WHERE tag < 3")! }
            #expect(DatabaseTableReader(store: store, schema: schema, query: filtered).suggestedFacets(rowCount: count, budget: Self.unhurried).map(\.column) == ["kind", "tag"],
                    "tag has 3 values among the filtered rows; size is a facet already")
            #expect(reader.suggestedFacets(rowCount: 200, budget: .zero).isEmpty, "past the budget: none, not a late page")
            #expect(reader.suggestedFacets(rowCount: 2, budget: Self.unhurried).isEmpty, "as many values as rows: nothing repeats")
        }
    }

    @Test("A column's checks read at most suggestionScanRows rows, in key order")
    func checkIsBounded() throws {
        // The first suggestionScanRows rows hold one value, the ten after them ten others.
        let rows = DatabaseTableReader.suggestionScanRows
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE big (id INTEGER PRIMARY KEY, v INTEGER)")
            try db.execute(sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO big SELECT i, CASE WHEN i <= ? THEN 0 ELSE i % 3 + 1 END FROM n", arguments: [rows + 10, rows])
        }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schema = try #require(try store.read { try DatabaseTableSchema.all(in: $0) }.first)
        let reader = DatabaseTableReader(store: store, schema: schema, query: DatabaseTableQuery(variant: [:], schema: schema))
        #expect(reader.suggestedFacets(rowCount: rows + 10, budget: Self.unhurried).isEmpty, "the rows past the bound are not read: v has one value among the first")
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(DISTINCT v) FROM big") } == 4)
    }

    /// The issue-32 case: on a table larger than the sample with indexed columns, SQLite read a
    /// column's sample from its index, in value order, where the first rows share one value: an
    /// indexed `status` of 5 values looked like one (not suggested) and a `product_id` of 300
    /// like 30 (suggested). The sample is read in key order, and a column is suggested by
    /// Datasette's rule: `status` is, `product_id` is not.
    @Test("Suggestions on indexed columns are Datasette's: status (5 values), not product_id (300)")
    func indexedColumns() throws {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT, product_id INTEGER, ordered_at TEXT, tags TEXT, numbers TEXT)")
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
                INSERT INTO orders SELECT i, CASE i % 5 WHEN 0 THEN 'pending' WHEN 1 THEN 'paid' WHEN 2 THEN 'shipped' WHEN 3 THEN 'delivered' ELSE 'cancelled' END,
                  i % 300 + 1, printf('2026-03-%02d 10:00:00', i % 28 + 1), CASE WHEN i % 7 = 0 THEN NULL ELSE json_array('gift', 'red') END, json_array(i % 4) FROM n
                """)
            try db.execute(sql: "CREATE INDEX orders_status ON orders (status)")
            try db.execute(sql: "CREATE INDEX orders_product ON orders (product_id)")
        }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schema = try #require(try store.read { try DatabaseTableSchema.all(in: $0) }.first)
        let reader = DatabaseTableReader(store: store, schema: schema, query: DatabaseTableQuery(variant: [:], schema: schema))
        let suggested = reader.suggestedFacets(rowCount: 100_000, budget: Self.unhurried)
        #expect(suggested == [
            DatabaseFacet.Suggestion(column: "status"), DatabaseFacet.Suggestion(column: "ordered_at"), DatabaseFacet.Suggestion(column: "numbers"),
            DatabaseFacet.Suggestion(column: "ordered_at", kind: .date), DatabaseFacet.Suggestion(column: "tags", kind: .array),
        ], "tags has one value (a column facet needs two); numbers holds arrays of numbers (no array facet)")
        var faceted = DatabaseTableQuery(variant: [:], schema: schema)
        faceted.dateFacets = ["ordered_at"]
        faceted.facets = ["status"]
        let others = DatabaseTableReader(store: store, schema: schema, query: faceted).suggestedFacets(rowCount: 100_000, budget: Self.unhurried)
        #expect(others == [DatabaseFacet.Suggestion(column: "ordered_at"), DatabaseFacet.Suggestion(column: "numbers"), DatabaseFacet.Suggestion(column: "tags", kind: .array)],
                "a facet asked for is not suggested again in its kind")
    }

    @Test("A page suggests facets, hides a column's values with _nocol, and its row page links to the row's JSON")
    func onTheServer() async throws {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, kind TEXT)")
            for id in 1...20 { try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [id, "n\(id)", ["a", "b"][id % 2]]) }
        }
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try await connection.request("GET", "/pages/t").text
            #expect(page.contains(#"Suggested facets: <a href="?_facet=kind">kind</a></p>"#))
            let hidden = try await connection.request("GET", "/pages/t?_nocol=name&_sort_desc=kind")
            #expect(hidden.status == 200)
            #expect(!hidden.text.contains(#"data-field="name""#), "no header and no value of the hidden column")
            #expect(hidden.text.contains(#"<span class="tk-field" role="cell" data-field="kind">"#))
            #expect(hidden.text.contains(#"href="/pages/t/rows/20?_nocol=name&amp;sort=-kind""#) || hidden.text.contains(#"?sort=-kind&amp;_nocol=name""#) || hidden.text.contains("_nocol=name"), "row links keep the page")
            let json = try await connection.request("GET", "/pages/t.json?_nocol=name").text
            #expect(!json.contains(#""n20""#) && json.contains(#""kind":"a""#), "JSON rows leave it out too")
            let refused = try await connection.request("GET", "/pages/t.json?_nocol=id")
            #expect(refused.status == 400 && refused.text.contains("is the key of"), "\(refused.status) \(refused.text)")
            let row = try await connection.request("GET", "/pages/t/rows/3?_nocol=name").text
            #expect(row.contains(#"data-field="name""#), "a row's own page shows every column")
            #expect(row.contains(#"<a href="/pages/t/rows/3.json?_nocol=name" type="application/json">JSON</a>"#))
        }
    }
}
