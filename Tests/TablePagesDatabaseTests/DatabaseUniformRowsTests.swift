import Foundation
import GRDB
import HostileTextSupport
import PropertyBased
@testable import TableKit
@testable import TablePagesTestSupport
import TableStore
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// A database page keeps the rows it shows whole as their values and writes their JSON fields
/// straight from them (``DatabaseTableSource/hasUniformRows(inSection:)``); these tests hold
/// that to the bytes of the same rows made into cells.
@Suite("Database rows held as values write the bytes their cells write", .shrinking(false))
struct DatabaseUniformRowsTests {
    /// Four words of a seed: every database of a check is built from one.
    static let seeds = Gen<UInt64>.value().array(of: 4)

    @Test("Random tables, pages from random positions and sizes, with and without hidden columns or groups: same JSON and HTML")
    func pagesMatchCells() async throws {
        var uniformSections = 0
        var mixedSections = 0
        await propertyCheckFailingOnThrow(count: 40, input: Self.seeds) { seed in
            var rng = Xoshiro(seed: (seed[0], seed[1], seed[2], seed[3]))
            let counts = try Self.check(using: &rng)
            uniformSections += counts.uniform
            mixedSections += counts.mixed
        }
        // The comparison means something only if both kinds of section were rendered.
        #expect(uniformSections > 0, "no section of two or more rows held only values")
        #expect(mixedSections > 0, "no section mixed values and cells")
    }

    @Test("Values of every kind a page shows whole: the JSON of the value path is the cells'", arguments: [false, true])
    func everyValueKind(hidesColumn: Bool) throws {
        let columns = ["i", "r \"q\"", "t<\u{2028}", "n", "b"]
        let rows: [[DatabaseValue]] = [
            [Int64.min.databaseValue, 0.1.databaseValue, "x\"<>&\u{2028}é".databaseValue, .null, 1e300.databaseValue],
            [Int64.max.databaseValue, (-0.0).databaseValue, "".databaseValue, Double.leastNonzeroMagnitude.databaseValue, Double.infinity.databaseValue],
            [0.databaseValue, 1e15.databaseValue, String(repeating: "é", count: 128).databaseValue, (-1e-300).databaseValue, 2.5.databaseValue],
        ]
        let database = try Self.database(columns: columns.map { ($0, "") }, rows: rows)
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schema = try #require(try store.read { try DatabaseTableSchema.all(in: $0) }.first { $0.name == "t" })
        let query = hidesColumn ? [(name: DatabaseTableQuery.hiddenColumnParameter, value: "n")] : []
        let reader = DatabaseTableReader(store: store, schema: schema, query: DatabaseTableQuery(variant: try DatabaseTableQuery.resolve(query, schema: schema), schema: schema))
        let section = try #require(try reader.window().first)
        let holdsValues = section.rows.allSatisfy { $0.holdsValues }
        #expect(holdsValues, "every value here is shown whole")
        let (values, cells) = Self.render(section, reader: reader)
        #expect(values == cells)
        #expect(values.json.contains(#""fields":{"id":-20,"i":-9223372036854775808,"r \"q\"":0.1,"t\u003c\u2028":"x\"\u003c\u003e\u0026\u2028é","#))
        #expect(values.json.contains(#""b":null}"#), "infinity is written as null")
        #expect(values.json.contains(#""n":"#) != hidesColumn)
    }

    // MARK: Checks

    /// One random table: its window and random pages of each section, rendered from the rows as
    /// read and from the same rows made into cells. Returns how many sections of two or more
    /// rows held only values, and how many mixed values and cells.
    static func check(using rng: inout Xoshiro) throws -> (uniform: Int, mixed: Int) {
        let columnCount = Int.random(in: 1...5, using: &rng)
        var names: Set<String> = ["id", "rowid", "oid", "_rowid_"]
        let columns = (0..<columnCount).map { _ in
            (name: uniqueName(using: &rng, taken: &names), type: ["INTEGER", "REAL", "TEXT", "BLOB", "", "NUMERIC"].randomElement(using: &rng)!)
        }
        // Half the tables show every value whole: their sections take the uniform path throughout.
        let partRate = Bool.random(using: &rng) ? 0 : Int.random(in: 1...4, using: &rng)
        let rows = (0..<Int.random(in: 0...30, using: &rng)).map { _ in
            (0..<columnCount).map { _ in value(partRate: partRate, using: &rng) }
        }
        let database = try database(columns: columns.map { ($0.name, $0.type) }, rows: rows)
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schema = try #require(try store.read { try DatabaseTableSchema.all(in: $0) }.first { $0.name == "t" })

        var parameters: [(name: String, value: String)] = []
        for column in columns where Int.random(in: 0..<3, using: &rng) == 0 {
            parameters.append((DatabaseTableQuery.hiddenColumnParameter, column.name))
        }
        if Int.random(in: 0..<3, using: &rng) == 0 {
            parameters.append((DatabaseTableQuery.groupParameter, columns.randomElement(using: &rng)!.name))
        }
        if Bool.random(using: &rng) {
            let column = columns.randomElement(using: &rng)!.name
            // `_sort_desc`, not `sort=-…`: a `-` before a name that starts with a combining mark
            // or a joiner is one Character with it, which `sort` does not see as a minus.
            parameters.append((Bool.random(using: &rng) ? DatabaseTableQuery.descendingSortParameter : DatabaseTableQuery.sortParameter, column))
        }
        let query = DatabaseTableQuery(variant: try DatabaseTableQuery.resolve(parameters, schema: schema), schema: schema)
        let reader = DatabaseTableReader(store: store, schema: schema, query: query)

        var sections = try reader.window()
        for section in sections {
            let count = section.total ?? section.rows.count + section.rowsAfter
            for _ in 0..<3 {
                let limit = Int.random(in: 1...count + 2, using: &rng)
                if Bool.random(using: &rng) || section.rows.isEmpty {
                    sections.append(try reader.page(of: section.id, from: Int.random(in: 0...count + 1, using: &rng), limit: limit, total: section.total))
                } else {
                    let after = section.rows.randomElement(using: &rng)!.id
                    sections.append(try reader.page(of: section.id, after: after, limit: limit, total: section.total))
                }
            }
        }
        var counts = (uniform: 0, mixed: 0)
        for section in sections {
            let (values, cells) = render(section, reader: reader)
            #expect(values.json == cells.json, "JSON of section \(section.id) (\(section.rows.count) rows) with \(parameters)")
            #expect(values.html == cells.html, "HTML of section \(section.id) with \(parameters)")
            #expect(values.overruns == 0)
            guard section.rows.count > 1 else { continue }
            if section.rows.allSatisfy(\.holdsValues) {
                counts.uniform += 1
            } else if section.rows.contains(where: \.holdsValues) {
                counts.mixed += 1
            }
        }
        return counts
    }

    /// What a page of `section` renders from its rows as read, and from the same rows with their
    /// cells made: the page's JSON and HTML, and the section's JSON on its own.
    static func render(_ section: DatabaseSection, reader: DatabaseTableReader) -> (values: Rendered, cells: Rendered) {
        let cells = DatabaseSection(
            id: section.id, headerTitle: section.headerTitle,
            rows: section.rows.map { DatabaseSection.Row(id: $0.id, cell: reader.cell(of: $0)) },
            rowsAfter: section.rowsAfter, total: section.total
        )
        return (Rendered(DatabaseTableSource(reader: reader, sections: [section])), Rendered(DatabaseTableSource(reader: reader, sections: [cells])))
    }

    /// A source's page in both formats and its section in JSON.
    struct Rendered: Equatable {
        var json: String
        var html: String
        var section: String
        var overruns: Int

        init(_ source: DatabaseTableSource) {
            let renderer = TableRenderer(table: TableAdapter(renderingOnce: source), context: RenderContext(basePath: "/pages/t"))
            var json = OutputBuffer()
            renderer.renderPage(as: .json, into: &json)
            var section = OutputBuffer()
            try? renderer.renderSection(source.sectionID(forSection: 0), as: .json, into: &section)
            var html = OutputBuffer()
            renderer.renderPage(as: .html, into: &html)
            self.json = json.string
            self.html = html.string
            self.section = section.string
            overruns = json.reservationOverruns + section.reservationOverruns
        }
    }

    // MARK: Fixtures

    /// A SQLite file with a table `t` of an integer key `id` and `columns`, holding `rows`.
    static func database(columns: [(name: String, type: String)], rows: [[DatabaseValue]]) throws -> TestDatabase {
        try TestDatabase { db in
            let definitions = columns.map { SQLIdentifier.quoted($0.name) + ($0.type.isEmpty ? "" : " " + $0.type) }
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY" + definitions.map { ", " + $0 }.joined() + ")")
            let names = columns.map { SQLIdentifier.quoted($0.name) }.joined(separator: ", ")
            let marks = columns.map { _ in "?" }.joined(separator: ", ")
            for (position, row) in rows.enumerated() {
                try db.execute(sql: "INSERT INTO t (id, \(names)) VALUES (?, \(marks))", arguments: StatementArguments([Int64(position * 3 - 20).databaseValue] + row))
            }
        }
    }

    /// A value of a random storage class; with `partRate` above 0, about one in `8 / partRate` is
    /// one a page shows only in part (a text over 256 bytes, a blob).
    static func value(partRate: Int, using rng: inout Xoshiro) -> DatabaseValue {
        if Int.random(in: 0..<8, using: &rng) < partRate {
            if Bool.random(using: &rng) {
                return Data((0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }).databaseValue
            }
            let unit = text(using: &rng)
            return String(repeating: unit.isEmpty ? "é" : unit, count: 300 / max(1, unit.utf8.count) + 1).databaseValue
        }
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .null
        case 1:
            let integers: [Int64] = [.min, .max, 0, -1, 1, 1 << 53, 999_999_999_999_999, 1_000_000_000_000_000]
            return (Bool.random(using: &rng) ? integers.randomElement(using: &rng)! : Int64(bitPattern: rng.next())).databaseValue
        case 2:
            let numbers: [Double] = [0.1, 0.2 + 0.1, 1e300, -1e300, 1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -0.0, 1e15, 1e16,
                                     999_999_999_999_999.9, 2.5, -123, .infinity, -.infinity, 1.0 / 3]
            var number = Bool.random(using: &rng) ? numbers.randomElement(using: &rng)! : Double(bitPattern: rng.next())
            if number.isNaN { number = 0.5 }  // SQLite stores NaN as NULL.
            return number.databaseValue
        default:
            // Up to the longest text a page shows whole, and now and then exactly at it.
            var text = text(using: &rng)
            if Int.random(in: 0..<8, using: &rng) == 0 {
                text = String(repeating: "a", count: 256 - min(256, text.utf8.count)) + text
            }
            while text.utf8.count > 256 {
                text.removeLast()
            }
            return text.databaseValue
        }
    }

    /// A few of ``HostileText/pieces`` and arbitrary scalars.
    static func text(using rng: inout Xoshiro) -> String {
        HostileText.short(upTo: 6, using: &rng)
    }

    /// A column name of spaces, quotes, markup and any scalar but NUL, distinct from `taken` in
    /// any case (SQLite's names ignore ASCII case).
    static func uniqueName(using rng: inout Xoshiro, taken: inout Set<String>) -> String {
        var name = ""
        while name.isEmpty || taken.contains(name.lowercased()) {
            // No NUL, which ends the SQL text GRDB hands SQLite.
            name += String(String.UnicodeScalarView(text(using: &rng).unicodeScalars.filter { $0 != "\u{0}" }))
                + ["", " ", "\"", "q"].randomElement(using: &rng)!
        }
        taken.insert(name.lowercased())
        return name
    }
}
