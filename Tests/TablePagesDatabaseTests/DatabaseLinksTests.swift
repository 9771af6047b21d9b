import Foundation
import GRDB
import HostileTextSupport
import HTTPTestSupport
import MicroHTTP
import PropertyBased
import Synchronization
import TableKit
@testable import TablePagesTestSupport
import TableStore
import Testing
@testable import TablePages
@testable import TablePagesDatabase

@Suite("Foreign keys show labels and link rows; views are pages", .shrinking(false))
struct DatabaseLinksTests {
    /// Customers, products (WITHOUT ROWID, a text key), tags referred to by a UNIQUE column, 250
    /// orders referring to all three (customer 999 does not exist; every 10th order has none), and a
    /// view of the big orders.
    static func shop() throws -> TestDatabase {
        let database = try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
                INSERT INTO customers VALUES (1, 'Ida Meyer', 'Bonn'), (2, '<b>Bo</b> & "Co"', 'Köln'), (3, NULL, 'Ulm');
                CREATE TABLE products (code TEXT PRIMARY KEY, title TEXT) WITHOUT ROWID;
                INSERT INTO products VALUES ('P 1', 'Kettle'), ('P,2', 'Teapot');
                CREATE TABLE tags (id INTEGER PRIMARY KEY, slug TEXT UNIQUE, name TEXT);
                INSERT INTO tags VALUES (1, 'red', 'Red things'), (2, 'blue', 'Blue things');
                CREATE TABLE orders (
                    id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), product TEXT REFERENCES products,
                    tag TEXT REFERENCES tags(slug), amount REAL
                );
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 250)
                INSERT INTO orders SELECT x,
                    CASE WHEN x % 10 = 0 THEN NULL ELSE 1 + x % 3 END,
                    CASE x % 2 WHEN 0 THEN 'P 1' ELSE 'P,2' END,
                    CASE x % 2 WHEN 0 THEN 'red' ELSE 'blue' END,
                    x % 100 FROM n;
                CREATE VIEW big_orders AS SELECT id, customer_id, amount FROM orders WHERE amount >= 50 ORDER BY amount DESC, id;
                """)
        }
        // The shell does not enforce foreign keys (GRDB does): an order of a customer who is gone;
        // nor does it check a view's tables: a view of a table that is gone.
        try database.shell("UPDATE orders SET customer_id = 999 WHERE id = 7; CREATE TABLE gone (x); CREATE VIEW broken_view AS SELECT x FROM gone; DROP TABLE gone;")
        return database
    }

    /// What SQLite answers, read on the calling thread.
    static func sqlite<T>(_ database: TestDatabase, _ read: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: database.path)
        defer { try? queue.close() }
        return try queue.inDatabase(read)
    }

    static func rows(_ page: [String: Any]) -> [[String: Any]] {
        (jsonSections(page).first?["rows"] as? [[String: Any]]) ?? []
    }

    static func fields(_ row: [String: Any]) -> [String: Any] {
        row["fields"] as? [String: Any] ?? [:]
    }

    @Test func aForeignKeyShowsTheReferencedRowsLabelLinkedToItsRow() async throws {
        let database = try Self.shop()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let html = try await connection.request("GET", "/pages/orders").text
            #expect(html.contains(#"<span class="tk-field-value tk-fk"><a href="/pages/customers/rows/1" title="Show this row of customers"><bdi>Ida Meyer</bdi></a> <bdi class="tk-fk-value">1</bdi></span>"#), "a rowid key: the value is the row id")
            #expect(html.contains(#"<a href="/pages/customers/rows/2" title="Show this row of customers"><bdi>&lt;b&gt;Bo&lt;/b&gt; &amp; &quot;Co&quot;</bdi></a>"#), "labels are escaped")
            #expect(html.contains(#"<a href="/pages/products/rows/sP%201" title="Show this row of products"><bdi>Kettle</bdi></a>"#), "a WITHOUT ROWID key: the encoded key")
            #expect(html.contains(#"<a href="/pages/products/rows/h502c32" title="Show this row of products"><bdi>Teapot</bdi></a>"#), "a key with a comma is hex-encoded")
            #expect(html.contains(#"<a href="/pages/tags?slug__exact=red" title="Show this row of tags"><bdi>Red things</bdi></a>"#), "a UNIQUE column: the filtered page")
            #expect(html.contains(#"<a class="tk-field-value tk-fk" href="/pages/customers/rows/999" title="Show this row of customers">999</a>"#), "no such row: the value, linked")
            #expect(html.contains(#"<a class="tk-field-value tk-fk" href="/pages/customers/rows/3" title="Show this row of customers">3</a>"#), "no label (a NULL name): the value, linked")
            #expect(!html.contains(#"href="/pages/customers/rows/NULL""#), "NULL links nowhere")
        }
    }

    @Test func jsonKeepsTheValuesAndExpandsThemWithLabelsOnAsDatasetteDoes() async throws {
        let database = try Self.shop()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let plain = Self.rows(try jsonObject(try await connection.request("GET", "/pages/orders.json")))
            #expect(Self.fields(plain[0])["customer_id"] as? Int == 2)
            #expect(Self.fields(plain[0])["product"] as? String == "P,2")
            let labelled = Self.rows(try jsonObject(try await connection.request("GET", "/pages/orders.json?_labels=on")))
            #expect(labelled.count == plain.count)
            let first = Self.fields(labelled[0])
            #expect((first["customer_id"] as? [String: Any])?["value"] as? Int == 2)
            #expect((first["customer_id"] as? [String: Any])?["label"] as? String == #"<b>Bo</b> & "Co""#)
            #expect((first["product"] as? [String: Any])?["label"] as? String == "Teapot")
            #expect(first["amount"] as? Double == 1, "other columns unchanged")
            let seventh = Self.fields(labelled[6])
            #expect(seventh["customer_id"] as? Int == 999, "no such row: the value alone")
            #expect(Self.fields(labelled[9])["customer_id"] is NSNull)
            // Customer 3 has no name: a null label, as Datasette expands it (a missing row stays a value).
            #expect((Self.fields(labelled[1])["customer_id"] as? [String: Any])?["value"] as? Int == 3)
            #expect((Self.fields(labelled[1])["customer_id"] as? [String: Any])?["label"] is NSNull)
            let refused = try await connection.request("GET", "/pages/orders.json?_labels=maybe")
            #expect(refused.status == 400)
            #expect(refused.text.contains("_labels must be on or off"))
            #expect(try await connection.request("GET", "/pages/customers.json?_labels=on").status == 200, "a table without links ignores it")
        }
    }

    @Test func theLabelsOfAPageAreReadInOneQueryWhateverItsRows() throws {
        let database = try Self.shop()
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schemas = try store.read { db in
            DatabaseRelations.linking(try DatabaseTableSchema.all(in: db), by: try DatabaseForeignKey.all(of: ["customers", "orders", "products", "tags"], in: db))
        }
        let orders = try #require(schemas.first { $0.name == "orders" })
        #expect(orders.linkedColumns.map(\.column) == ["customer_id", "product", "tag"])
        #expect(orders.linkedColumns.map(\.link) == [.rowID, .encodedKey, .filter])
        #expect(try #require(schemas.first { $0.name == "customers" }).incomingLinks.map(\.column) == ["customer_id"])
        let counting = CountingReader(base: store)
        let reader = DatabaseTableReader(database: counting, schema: orders, query: DatabaseTableQuery(variant: [:], schema: orders))
        for limit in [5, 200] {
            counting.queries.withLock { $0 = [] }
            let page = try reader.page(of: DatabaseTableReader.ungroupedSection, after: nil, limit: limit, total: 250)
            #expect(page.rows.count == limit)
            let labelQueries = counting.queries.withLock { $0 }.filter { $0.contains("FROM \"customers\"") }
            #expect(labelQueries.count == 1, "one query for \(limit) rows: \(labelQueries)")
            #expect(labelQueries.first?.contains("UNION ALL") == true, "every linked column in that one query")
        }
    }

    @Test func aRowPageCountsTheRowsOfOtherTablesThatReferToIt() async throws {
        let database = try Self.shop()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let expected = try Self.sqlite(database) { try Int.fetchOne($0, sql: "SELECT count(*) FROM orders WHERE customer_id = 1") ?? 0 }
            let html = try await connection.request("GET", "/pages/customers/rows/1").text
            #expect(html.contains("Links from other tables"))
            #expect(html.contains(#"<a class="tk-db-link" href="/pages/orders?customer_id__exact=1">\#(expected) rows from <bdi>customer_id</bdi> in <bdi>orders</bdi></a>"#))
            let row = try jsonObject(try await connection.request("GET", "/pages/customers/rows/1.json"))
            let links = try #require(row["linksFromOtherTables"] as? [[String: Any]])
            #expect(links.count == 1)
            #expect(links[0]["table"] as? String == "orders")
            #expect(links[0]["count"] as? Int == expected)
            let filtered = Self.rows(try jsonObject(try await connection.request("GET", (links[0]["href"] as? String ?? "") + "&_size=1000", headers: [("Accept", "application/json")])))
            #expect(filtered.count == expected, "the link leads to exactly those rows")
            let products = try await connection.request("GET", "/pages/products/rows/sP%201").text
            #expect(products.contains(#"href="/pages/orders?product__exact=P%201">125 rows from <bdi>product</bdi> in <bdi>orders</bdi></a>"#))
            let orderPage = try await connection.request("GET", "/pages/orders/rows/1").text
            #expect(orderPage.contains("><bdi>Teapot</bdi></a>"), "a row page labels its linked values too")
            #expect(!orderPage.contains("Links from other tables"), "nothing refers to orders")
        }
    }

    @Test func renamingACustomerByTheSqlite3ShellReachesAnOpenOrdersPageWithinASecond() async throws {
        let database = try Self.shop()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let stream = try await TestConnection(port: server.port)
            // The HTML patches, as a browser's page gets them: JSON carries the label only with _labels=on.
            _ = try await stream.openStream("/pages/orders/events")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            let start = ContinuousClock.now
            try database.shell("UPDATE customers SET name = 'Ida Renamed' WHERE id = 2")
            // Until the event that carries the label has ended.
            let text = try await stream.readStream(until: { text in
                text.range(of: "Ida Renamed").map { text[$0.upperBound...].contains("\n\n") } ?? false
            }, timeout: .seconds(5))
            #expect(ContinuousClock.now - start < .seconds(1))
            let event = try #require(events(in: text).first { $0.contains("Ida Renamed") })
            let expected = try Self.sqlite(database) { try Int.fetchOne($0, sql: "SELECT count(*) FROM orders WHERE customer_id = 2") ?? 0 }
            #expect(event.components(separatedBy: #""op":"replace""#).count - 1 == expected, "every order of that customer, and only those")
        }
    }

    @Test func aViewIsAReadOnlyPagePagedByPosition() async throws {
        let database = try Self.shop()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let expected = try Self.sqlite(database) { try Int64.fetchAll($0, sql: "SELECT id FROM big_orders") }
            let index = try await connection.request("GET", "/").text
            #expect(index.contains("big_orders"))
            #expect(!index.contains("broken_view"), "a view that cannot be read is left out")
            let html = try await connection.request("GET", "/pages/big_orders").text
            #expect(html.contains(#"<a class="tk-field-value tk-key tk-number" href="/pages/big_orders/rows/0" title="Show this row">\#(expected[0])</a>"#), "the first row links to its position")
            #expect(html.contains(#"<a class="tk-field-value tk-fk" href="/pages/customers/rows/"#) == false, "a view's columns are no foreign keys")
            let page = try jsonObject(try await connection.request("GET", "/pages/big_orders.json?limit=30"))
            let ids = try await followNextLinks(connection, from: jsonSections(page)[0])
            #expect(ids == (0..<expected.count).map(String.init), "a row's id is its position")
            var values: [Int64] = []
            var next: String? = "/pages/big_orders/sections/all?limit=40"
            while let url = next {
                let section = try jsonObject(try await connection.request("GET", url, headers: [("Accept", "application/json")]))
                values += Self.rows(section).compactMap { Self.fields($0)["id"] as? Int }.map(Int64.init)
                next = section["next"] as? String
            }
            #expect(values == expected, "the view's own order, page after page")
            let sorted = Self.rows(try jsonObject(try await connection.request("GET", "/pages/big_orders.json?_sort=id&limit=5")))
            #expect(sorted.compactMap { Self.fields($0)["id"] as? Int }.map(Int64.init) == Array(expected.sorted().prefix(5)))
            let row = try jsonObject(try await connection.request("GET", "/pages/big_orders/rows/2.json?_sort=id"))
            #expect(Self.fields(row)["id"] as? Int == Int(expected.sorted()[2]), "a row page reads the position in the variant's order")
            #expect(try await connection.request("GET", "/pages/big_orders/rows/abc").status == 404)
            #expect(try await connection.request("GET", "/pages/big_orders?group=amount").status == 400)
            let csv = try await connection.request("GET", "/pages/big_orders.csv").text
            #expect(csv.split(separator: "\r\n").count == expected.count + 1)
        }
    }

    @Test func aViewIsReReadWhenATableItReadsChanges() async throws {
        let database = try Self.shop()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/big_orders/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            try database.shell("UPDATE orders SET amount = 4321 WHERE id = 1")
            let text = try await stream.readStream(until: { $0.contains("4321") }, timeout: .seconds(5))
            #expect(text.contains("4321"))
        }
    }

    @Test func aHugeLabelIsReadCutAndShownCutInHTMLAndJSON() async throws {
        let database = try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id));
                """)
            try db.execute(sql: "INSERT INTO customers VALUES (1, ?)", arguments: [String(repeating: "Ida ", count: 250_000)])
            try db.execute(sql: "INSERT INTO orders VALUES (1, 1)")
        }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schemas = try store.read { db in
            DatabaseRelations.linking(try DatabaseTableSchema.all(in: db), by: try DatabaseForeignKey.all(of: ["customers", "orders"], in: db))
        }
        let orders = try #require(schemas.first { $0.name == "orders" })
        let counting = CountingReader(base: store)
        var query = DatabaseTableQuery(variant: [:], schema: orders)
        query.labels = true
        let reader = DatabaseTableReader(database: counting, schema: orders, query: query)
        let rows = try reader.window()[0].rows
        let field = try #require(rows.first.map(reader.cell(of:))?.content.fields.first { $0.name == "customer_id" })
        #expect(field.value.utf8.count == DatabaseRecordCell.maxShownBytes && field.value.hasSuffix("\u{2026}"))
        #expect(field.json == .object([JSONProperty(name: "value", value: .integer(1)), JSONProperty(name: "label", value: .string(field.value))]), "JSON's label is cut as HTML's")
        #expect(counting.queries.withLock { $0 }.contains { $0.contains("substr(\"name\", 1, \(DatabaseLabelReader.maxLabelCharacters))") }, "read cut, not whole")
    }

    @Test func aRowWhoseLinksCannotBeCountedInTimeStillShowsSayingSo() throws {
        let database = try Self.shop()
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schemas = try store.read { db in
            DatabaseRelations.linking(try DatabaseTableSchema.all(in: db), by: try DatabaseForeignKey.all(of: ["customers", "orders", "products", "tags"], in: db))
        }
        let customers = try #require(schemas.first { $0.name == "customers" })
        let slow = CountingReader(base: store, failing: "SELECT (SELECT count(*)")
        let reader = DatabaseTableReader(database: slow, schema: customers, query: DatabaseTableQuery(variant: [:], schema: customers))
        let row = reader.cell(of: try reader.record("1"))
        #expect(row.content.fields.first { $0.name == "name" }?.value == "Ida Meyer")
        let links = try #require(row.content.jsonProperties.first { $0.name == DatabaseIncomingLink.jsonMember })
        guard case .array(let entries) = links.value, case .object(let members) = entries.first else {
            Issue.record("no links: \(links)")
            return
        }
        #expect(members.first { $0.name == "count" }?.value == .null)
        var out = OutputBuffer()
        DatabaseRecordCell.kind.render(row.content, &out)
        #expect(!out.string.contains("too many to count"), "unplaced: no row page")
        var placed = OutputBuffer()
        DatabaseRecordCell.appendIncomingLinks(row.content, into: &placed)
        #expect(placed.string.contains(#"<a class="tk-db-link" href="/pages/orders?customer_id__exact=1">Rows (too many to count in time) from <bdi>customer_id</bdi> in <bdi>orders</bdi></a>"#))
    }

    @Test func theLabelColumnIsNameOrTitleOrTheOtherOfTwoColumnsOrOneSetPerTable() {
        let rule = DatabaseLabelColumns()
        #expect(rule.column(of: "t", columns: ["id", "code", "Name", "title"]) == "Name")
        #expect(rule.column(of: "t", columns: ["id", "title"]) == "title")
        #expect(rule.column(of: "t", columns: ["pk", "label"]) == "label")
        #expect(rule.column(of: "t", columns: ["id", "a", "b"]) == nil)
        let configured = DatabaseLabelColumns(overrides: ["t": "b"])
        #expect(configured.column(of: "t", columns: ["id", "a", "b", "name"]) == "b")
        #expect(configured.column(of: "t", columns: ["id", "name"]) == "name", "a column the table lacks falls back to the rule")
    }

    @Test("Any label and value are escaped in the cell's HTML and kept exact in its JSON")
    func hostileLabels() async {
        let short = HostileText.text.map { String(decoding: $0.utf8.prefix(1024), as: UTF8.self) }
        await propertyCheckFailingOnThrow(input: short, short) { label, value in
            // A label that reads as its value shows as the value alone (see `linkedParts`).
            guard label != value else { return }
            let referenced = DatabaseTableSchema(name: "c<&\"", columns: ["code", "name"], key: ["code"], keyIsRowID: false, defaultSort: nil)
            let link = DatabaseLinkedColumn(DatabaseForeignKey(table: "t", column: "c", referencedTable: "c<&\"", referencedColumn: "code"), referenced: referenced, labelColumn: "name")
            func html(_ label: String, _ value: String) -> String {
                let field = DatabaseRecordCell.labelled(DatabaseRecordCell.field("c", SQLValue.text(value), extent: .row), label: label, expanded: false, extent: .row)
                var out = OutputBuffer()
                DatabaseRecordCell.kind(linking: [link]).render(CellContent(fields: [CellField(name: "k", value: "1"), field]), &out)
                return out.string
            }
            let hostile = html(label, value)
            #expect(DatabaseTableViewTests.tags(hostile) == DatabaseTableViewTests.tags(html("L", "v")))
            // Label and value each isolated in a <bdi>, in order, so neither takes the other into its direction.
            #expect(ReferenceEscaping.contains(Array(hostile.utf8), Array("><bdi>".utf8) + ReferenceEscaping.html(label)
                + Array(#"</bdi></a> <bdi class="tk-fk-value">"#.utf8) + ReferenceEscaping.html(DatabaseRecordCell.field("c", SQLValue.text(value)).value)
                + Array("</bdi></span>".utf8)), "label \(label.debugDescription), value \(value.debugDescription)")
            let expanded = DatabaseRecordCell.labelled(DatabaseRecordCell.field("c", SQLValue.text(value), extent: .row), label: label, expanded: true, extent: .row)
            #expect(expanded.json == .object([JSONProperty(name: "value", value: .string(value)), JSONProperty(name: "label", value: .string(label))]))
            #expect(DatabaseRecordCell.linkedParts(DatabaseRecordCell.labelled(DatabaseRecordCell.field("c", SQLValue.text(value), extent: .row), label: label, expanded: false, extent: .row)).value == SQLValue.text(value))
        }
    }
}

/// Runs another reader's snapshots and records every SQL text they run.
final class CountingReader: SQLReader {
    let base: any SQLReader
    let queries = Mutex<[String]>([])

    /// SQL starting with this fails as a read past the query time limit.
    let failing: String?

    init(base: any SQLReader, failing: String? = nil) {
        self.base = base
        self.failing = failing
    }

    var dialect: SQLDialect { base.dialect }

    func snapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        try base.snapshot { session in try body(Session(base: session, owner: self)) }
    }

    private struct Session: SQLSession {
        let base: any SQLSession
        let owner: CountingReader

        func forEachRow(_ sql: String, _ arguments: [SQLValue], keepsPrepared: Bool, _ body: (SQLRow) throws -> Void) throws {
            owner.queries.withLock { $0.append(sql) }
            if let failing = owner.failing, sql.hasPrefix(failing) { throw QueryTimeLimitExceeded(limit: .seconds(1)) }
            try base.forEachRow(sql, arguments, keepsPrepared: keepsPrepared, body)
        }

        func execute(_ sql: String, _ arguments: [SQLValue]) throws {
            try forEachRow(sql, arguments, keepsPrepared: false) { _ in }
        }
    }
}
