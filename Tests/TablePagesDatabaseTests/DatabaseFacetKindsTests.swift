import Foundation
import GRDB
import MicroHTTP
import TableKit
@testable import TablePagesTestSupport
import TableStore
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// A page's date and array facets (`_facet_date`, `_facet_array`) and the labels of a foreign
/// key's facet (issue 32): the counts are SQLite's, the variant reads back as itself, and the
/// header shows "ordered_at (date)" with links that add Datasette's filters.
@Suite("Date, array and labelled facets")
struct DatabaseFacetKindsTests {
    /// Orders of products: `product_id` references a product by its `name`, `ordered_at` holds
    /// datetimes (and text that is no date), `tags` JSON arrays that repeat an item, `name` text.
    static func withShop<T>(_ body: (Store, DatabaseTableSchema) throws -> T) throws -> T {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "CREATE TABLE orders (id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES products(id), ordered_at TEXT, tags TEXT, note TEXT)")
            for id in 1...7 { try db.execute(sql: "INSERT INTO products VALUES (?, ?)", arguments: [id, id == 3 ? nil : "Lamp \u{05D0} #\(id)"]) }
            let tags = [#"["gift","red"]"#, #"["red","red"]"#, "[]", nil, #"["gift"]"#]
            for id in 1...60 {
                let day = id % 4 == 0 ? "not a date" : "2026-03-0\(id % 5 + 1) 1\(id % 10):00:00"
                try db.execute(sql: "INSERT INTO orders VALUES (?, ?, ?, ?, ?)", arguments: [id, id % 9 == 0 ? nil : id % 7 + 1, day, tags[id % tags.count], "n\(id)"])
            }
        }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schema = try #require(try store.read { try DatabaseRelations.linkedSchemas(in: $0) }.first { $0.name == "orders" })
        return try body(store, schema)
    }

    static func rows(_ store: Store, _ sql: String) throws -> [DatabaseFacet.Value] {
        try store.read { db in
            try GRDB.Row.fetchAll(db, sql: sql).map { DatabaseFacet.Value(value: SQLValue($0[0] as DatabaseValue), count: $0[1]) }
        }
    }

    @Test("Column, date and array facets count as SQLite does, in that order, a foreign key's values labelled")
    func counts() throws {
        try Self.withShop { store, schema in
            let asked = try DatabaseTableQuery.resolve([(name: "_facet_array", value: "tags"), (name: "_facet_date", value: "ordered_at"), (name: "_facet", value: "product_id")], schema: schema)
            #expect(asked == ["_facet_array": "tags", "_facet_date": "ordered_at", "_facet": "product_id"])
            let query = DatabaseTableQuery(variant: asked, schema: schema)
            let facets = try DatabaseTableReader(store: store, schema: schema, query: query).facets()
            #expect(facets.map(\.column) == ["product_id", "ordered_at", "tags"])
            #expect(facets.map(\.kind) == [.column, .date, .array])
            let dates = try Self.rows(store, "SELECT date(ordered_at), count(*) FROM orders WHERE date(ordered_at) IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1")
            #expect(facets[1].values == dates && dates.count == 5, "'not a date' is no date")
            let items = try Self.rows(store, "SELECT j.value, count(DISTINCT o.id) FROM orders o, json_each(o.tags) j GROUP BY 1 ORDER BY 2 DESC, 1")
            #expect(facets[2].values == items && items == [DatabaseFacet.Value(value: .text("gift"), count: 24), DatabaseFacet.Value(value: .text("red"), count: 24)],
                    "an item twice in one array counts once (red would be 36)")
            let names = try store.read { db in
                Dictionary(uniqueKeysWithValues: try GRDB.Row.fetchAll(db, sql: "SELECT id, name FROM products").map { row -> (SQLValue, String?) in
                    let id: Int64 = row[0]
                    let name: String? = row[1]
                    return (SQLValue.integer(id), name)
                })
            }
            for value in facets[0].values {
                if value.value.isNull {
                    #expect(value.label == nil, "NULL references nothing")
                } else {
                    #expect(value.label == .some(names[value.value] ?? nil), "\(value.value): its product's name")
                }
            }
            #expect(facets[0].values.contains { $0.label == .some(nil) }, "product 3's name is NULL")
        }
    }

    @Test("Two facets of a kind read back as one variant; the header names a date facet and links Datasette's filters")
    func variantAndHeader() throws {
        try Self.withShop { store, schema in
            let two = try DatabaseTableQuery.resolve([(name: "_facet_date", value: "ordered_at"), (name: "_facet_date", value: "note"), (name: "_facet_date", value: "ordered_at")], schema: schema)
            #expect(two == ["_facet_dates": "ordered_at,note"])
            #expect(try DatabaseTableQuery.resolve(two.map { (name: $0.key, value: $0.value) }, schema: schema) == two)
            #expect(throws: PageDefinition.VariantError.self) { try DatabaseTableQuery.resolve([(name: "_facet_array", value: "nope")], schema: schema) }
            var query = DatabaseTableQuery(variant: ["_facet_date": "ordered_at", "_facet": "product_id"], schema: schema)
            #expect(DatasetteQuery.string(query) == "?_facet=product_id&_facet_date=ordered_at")
            let facets = try DatabaseTableReader(store: store, schema: schema, query: query).facets()
            let html = DatabaseTableViewTests.html(DatabaseTableHeader(schema: schema, query: query, rowCount: 60, facets: facets))
            #expect(html.contains(#"<section class="tk-db-facet" data-field="ordered_at" data-type="date"><h2>ordered_at (date) <a class="tk-db-remove" href="?_facet=product_id" aria-label="Remove the facet ordered_at (date)">"#))
            let day = try #require(facets[1].values.first?.value.stringValue)
            #expect(html.contains(#"<a href="?_facet=product_id&amp;_facet_date=ordered_at&amp;ordered_at__date=\#(day)">\#(day)</a>"#))
            let label = try #require(facets[0].values.first { $0.label != nil && $0.label! != nil }?.label ?? nil)
            #expect(html.contains(">\(label)</a>"), "a product by its name, not its number")
            query.dateFacets = []
            #expect(DatasetteQuery.string(query) == "?_facet=product_id")
        }
    }

    @Test("An array facet of a column that is not JSON is the client's mistake, a 400")
    func notJSON() throws {
        try Self.withShop { store, schema in
            let query = DatabaseTableQuery(variant: ["_facet_array": "note"], schema: schema)
            do {
                _ = try DatabaseTableReader(store: store, schema: schema, query: query).facets()
                Issue.record("the facet of text that is not JSON was counted")
            } catch let error as DatabaseFacetError {
                #expect(error.httpError.status == 400)
                #expect(error.httpError.message.contains("_facet=note instead"))
            }
        }
    }
}
