import GRDB
import TableKit
@testable import TablePagesTestSupport
import TableStore
import Testing
@testable import TablePagesDatabase

@Suite("The rows after a deep page of a database table")
struct DatabaseRowEstimateTests {
    static let rows = 50_000

    /// `t`: ids 1…50,000 (no gaps), `kind` 'k0'…'k6' by id, `name` 'n{id}'.
    static func withTable<T>(_ body: (Store, DatabaseTableSchema) throws -> T) throws -> T {
        let database = try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE t (id INTEGER PRIMARY KEY, kind TEXT, name TEXT);
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows))
                INSERT INTO t SELECT x, 'k' || (x % 7), 'n' || x FROM n;
                """)
        }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schema = try #require(try store.read { try DatabaseTableSchema.all(in: $0) }.first)
        return try body(store, schema)
    }

    static func reader(_ store: Store, _ schema: DatabaseTableSchema, _ variant: [String: String] = [:]) -> DatabaseTableReader {
        DatabaseTableReader(store: store, schema: schema, query: DatabaseTableQuery(variant: variant, schema: schema))
    }

    static func count(_ store: Store, _ sql: String) throws -> Int {
        try store.read { try Int.fetchOne($0, sql: sql) ?? -1 }
    }

    @Test("In key order, a page far from the end gets the rows after it from the key range: exact without gaps, where counting stopped at 10,000 each way")
    func keyOrderInterpolates() throws {
        try Self.withTable { store, schema in
            let reader = Self.reader(store, schema)
            let page = try reader.page(of: "all", after: "20000", limit: 100, total: Self.rows)
            #expect(page.rows.map(\.id.rawValue) == (20_001...20_100).map(String.init))
            // Counting 10,000 each way could only say "somewhere in the middle": half the table.
            #expect(page.rowsAfter == Self.rows - 20_100)
            #expect(page.rowsAfter == (try Self.count(store, "SELECT count(*) FROM t WHERE id > 20100")))
            // The first page too (the window holds it, but the section route may ask).
            #expect(try reader.page(of: "all", after: nil, limit: 100, total: Self.rows).rowsAfter == Self.rows - 100)
        }
    }

    @Test("Near the end, by the key range, the rows after a page are counted exactly")
    func nearTheEndCounts() throws {
        try Self.withTable { store, schema in
            // The key range says 3,900 rows follow the page: fewer than twice the bound, so they
            // are counted (at most 10,000 rows walked). With a total claiming far more rows, the
            // same page is estimated from it instead: the count was not taken.
            let page = try Self.reader(store, schema).page(of: "all", after: "46000", limit: 100, total: Self.rows)
            #expect(page.rowsAfter == Self.rows - 46_100)
            #expect(try Self.reader(store, schema).page(of: "all", after: "46000", limit: 100, total: 1_000_000).rowsAfter == 78_000)
            // A small section is always counted: 3,900 rows, though the total says 5,000 in all.
            #expect(try Self.reader(store, schema).page(of: "all", after: "46000", limit: 100, total: 5_000).rowsAfter == Self.rows - 46_100)
        }
    }

    @Test("A filtered page scales the filtered total by the part of the key range after it")
    func filteredScalesTheTotal() throws {
        try Self.withTable { store, schema in
            // Six kinds of seven: enough rows that the estimate is above twice the bound.
            let total = try Self.count(store, "SELECT count(*) FROM t WHERE kind <> 'k3'")
            let reader = Self.reader(store, schema, ["kind__not": "k3"])
            let page = try reader.page(of: "all", after: "10000", limit: 100, total: total)
            #expect(page.rows.count == 100)
            #expect(page.rows.allSatisfy { (Int($0.id.rawValue) ?? 0) % 7 != 3 })
            let lastRow = try #require(page.rows.last)
            let last = try #require(Int(lastRow.id.rawValue))
            let expected = Int((Double(total) * Double(Self.rows - last) / Double(Self.rows)).rounded())
            #expect(page.rowsAfter == expected)
            // Rows of these kinds spread evenly over the keys: the estimate is within a few rows.
            let exact = try Self.count(store, "SELECT count(*) FROM t WHERE kind <> 'k3' AND id > \(last)")
            #expect(abs(page.rowsAfter - exact) <= 3)
            // One kind of seven is fewer than twice the bound in all: always counted, exactly.
            let k3 = try Self.count(store, "SELECT count(*) FROM t WHERE kind = 'k3'")
            let counted = try Self.reader(store, schema, ["kind": "k3"]).page(of: "all", after: "10000", limit: 100, total: k3)
            let k3Last = try #require(counted.rows.last)
            #expect(counted.rowsAfter == (try Self.count(store, "SELECT count(*) FROM t WHERE kind = 'k3' AND id > \(k3Last.id.rawValue)")))
        }
    }

    @Test("Sorted by a column, or descending, the key says nothing of the order: nothing is interpolated")
    func otherOrdersDoNotInterpolate() throws {
        try Self.withTable { store, schema in
            for variant in [["sort": "name"], ["sort": "-id"], ["sort": "-name"]] {
                let reader = Self.reader(store, schema, variant)
                let estimate = try reader.database.snapshot { db in
                    try reader.interpolatedRows(after: DatabaseTableReader.Position(sortValue: SQLValue.text("n20000"), key: [SQLValue.integer(20_000)]), total: Self.rows, in: db)
                }
                #expect(estimate == nil, "\(variant)")
            }
            // Sorted by name, a page in the middle counts 10,000 each way and says half the table.
            let page = try Self.reader(store, schema, ["sort": "name"]).page(of: "all", after: "30000", limit: 100, total: Self.rows)
            #expect(page.rowsAfter == Self.rows / 2)
        }
    }

    @Test("A last key outside the table's key range estimates all rows or none, never a negative count")
    func keysOutsideTheRange() throws {
        try Self.withTable { store, schema in
            let reader = Self.reader(store, schema)
            // A last key past the table's largest one: nothing follows.
            let past = try reader.database.snapshot { db in
                try reader.interpolatedRows(after: DatabaseTableReader.Position(sortValue: nil, key: [SQLValue.integer(90_000)]), total: Self.rows, in: db)
            }
            #expect(past == 0)
            // Before the smallest: all of them.
            let before = try reader.database.snapshot { db in
                try reader.interpolatedRows(after: DatabaseTableReader.Position(sortValue: nil, key: [SQLValue.integer(-5)]), total: Self.rows, in: db)
            }
            #expect(before == Self.rows)
        }
    }
}
