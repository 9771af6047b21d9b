import Foundation
import GRDB
import HostileTextSupport
import HTTPTestSupport
import MicroHTTP
import PropertyBased
import TableStore
@testable import TablePagesTestSupport
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// The browser's undo (`POST /pages/{table}/-/undo`) writes back every value exactly, of every
/// SQLite storage class — a blob's bytes, a real (not an integer), text that looks like a number
/// (not the number), NULL, hostile text — and the audit trail keeps each value as it was.
@Suite("Undo writes every value back exactly", .shrinking(false))
struct DatabaseUndoExactValuesTests {
    /// A table with a column of each affinity, and a table without a primary key (keyed by its rowid).
    static func database() throws -> TestDatabase {
        try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE kinds (id INTEGER PRIMARY KEY, plain, t TEXT, i INTEGER, r REAL, n NUMERIC, b BLOB);
                CREATE TABLE loose (plain, t TEXT, r REAL);
                """)
        }
    }

    static let columns = ["kinds": ["plain", "t", "i", "r", "n", "b"], "loose": ["plain", "t", "r"]]

    /// Text a column of numeric affinity would read as a number, or nearly.
    static let numberLike = ["007", "1e3", " 12", "3.0", "-0", "0x10", "1,5", "9223372036854775808", "+5", "1.", ".5", "NaN", "Infinity"]

    /// A value of any storage class, the kinds an undo is likeliest to get wrong among them.
    static func value(using rng: inout Xoshiro) -> SQLValue {
        switch Int.random(in: 0...7, using: &rng) {
        case 0: return .null
        case 1: return .integer(Int64.random(in: .min ... .max, using: &rng))
        case 2: return .real([2.5, -0.0, 5.0, 1e300, -1e-300, 0.1, 9007199254740992, .leastNonzeroMagnitude].randomElement(using: &rng) ?? 0)
        case 3:
            let real = Double(bitPattern: UInt64.random(in: .min ... .max, using: &rng))
            return .real(real.isFinite ? real : 1.5)
        case 4: return .text(String(HostileText.short(upTo: 8, using: &rng).unicodeScalars.filter { $0 != "\u{0}" }))
        case 5: return .text(numberLike.randomElement(using: &rng) ?? "1")
        case 6: return .blob(Data((0..<Int.random(in: 0...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        default: return .blob(Data((numberLike.randomElement(using: &rng) ?? "1").utf8))
        }
    }

    /// Every row of `table` by rowid: each cell's storage class and its exact bytes (a real's 17
    /// significant digits, which tell any two doubles apart; `hex` of anything else).
    static func cells(of table: String, in store: Store) throws -> [Int64: [String]] {
        let list = columns[table, default: []].map { column in
            "typeof(\(column)) || ':' || CASE typeof(\(column)) WHEN 'real' THEN printf('%!.17g', \(column)) ELSE hex(\(column)) END"
        }
        return try store.read { db in
            var rows: [Int64: [String]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT rowid, \(list.joined(separator: ", ")) FROM \(table)") {
                rows[row[0]] = (1..<row.count).map { row[$0] }
            }
            return rows
        }
    }

    /// Whether two values are the same to the last bit (`==` takes -0.0 for 0.0).
    static func same(_ left: SQLValue?, _ right: SQLValue?) -> Bool {
        if case .real(let a)? = left, case .real(let b)? = right { return a.bitPattern == b.bitPattern }
        return left == right
    }

    static let setUp = WriteAuthor(actorID: "test:setup", name: "setup", channel: .api)

    @Test("Random rows of every kind, deleted then undone, edited then undone, pasted then undone: the bytes are as before, in the database and in the trail")
    func undoRestoresEveryStorageClass() async throws {
        try await DatabaseTableEditingTests.withFixture(database: Self.database, audited: true) { site in
            await propertyCheckFailingOnThrow(count: 30, input: Gen<UInt64>.value().array(of: 4)) { seed in
                var rng = Xoshiro(seed: (seed[0], seed[1], seed[2], seed[3]))
                let table = Bool.random(using: &rng) ? "kinds" : "loose"
                let writer = try site.writers.writer(forTable: table)
                let row = Dictionary(uniqueKeysWithValues: Self.columns[table, default: []].map { ($0, Self.value(using: &rng)) })
                let key = try await writer.insert([row], by: Self.setUp)[0]
                let id = writer.rowID(of: key)
                let before = try Self.cells(of: table, in: site.store)
                let stored = try #require(try await writer.row(key))

                // Deleted, then undone: the row is back with its id and every byte.
                let deleted = await site.send(.post, "/pages/\(table)/rows/\(id)/-/delete", browser: true)
                #expect(deleted.status == 200, "\(DatabaseTableEditingTests.text(deleted))")
                let undoPath = try #require(try DatabaseTableEditingTests.json(deleted)["undo"] as? String)
                let trail = try #require(site.writers.audit).records(before: nil, limit: 1, tables: [table])
                #expect(trail.first?.entry.action == .delete)
                #expect(Self.columns[table, default: []].allSatisfy { Self.same(trail.first?.entry.old?[$0], stored[$0]) }, "the trail keeps the values as they were: \(String(describing: trail.first?.entry.old)) against \(stored)")
                let undone = await site.send(.post, undoPath, form: "_row=" + id, browser: true)
                #expect(undone.status == 200, "\(DatabaseTableEditingTests.text(undone))")
                #expect(try Self.cells(of: table, in: site.store) == before, "row \(id) of \(table) after undoing its delete")

                // Edited through the form (every value as text), then undone: as before again.
                let edited = await site.send(.post, "/pages/\(table)/rows/\(id)/-/update", form: "v.t=changed&v.plain=1", browser: true)
                #expect(edited.status == 200, "\(DatabaseTableEditingTests.text(edited))")
                #expect(try Self.cells(of: table, in: site.store) != before)
                let undoneEdit = await site.send(.post, undoPath, form: "_row=" + id, browser: true)
                #expect(undoneEdit.status == 200, "\(DatabaseTableEditingTests.text(undoneEdit))")
                #expect(try Self.cells(of: table, in: site.store) == before, "row \(id) of \(table) after undoing its edit")

                // Rows pasted, then undone: gone, the others untouched.
                let pasted = await site.send(.post, "/pages/\(table)/-/insert", form: "_paste=t%0Aa%0Ab", browser: true)
                #expect(pasted.status == 201, "\(DatabaseTableEditingTests.text(pasted))")
                #expect(await site.send(.post, undoPath, browser: true).status == 200)
                #expect(try Self.cells(of: table, in: site.store) == before, "after undoing a paste")
            }
        }
    }

    @Test("The undo undoes only the actor's last change, when it is to the row asked: else 409, and nothing is written")
    func undoIsForTheLastChange() async throws {
        try await DatabaseTableEditingTests.withFixture(audited: true) { site in
            #expect(await site.send(.post, "/pages/items/-/undo", browser: true).status == 404, "nothing to undo yet")
            #expect(await site.send(.post, "/pages/items/-/undo").status == 401)
            let deleted = await site.send(.post, "/pages/items/rows/1/-/delete", browser: true)
            #expect(deleted.status == 200)
            #expect(await site.send(.post, "/pages/items/rows/2/-/update", form: "v.note=later", browser: true).status == 200)
            // The last change is the edit of row 2: the delete of row 1 is not undone by its toast.
            let stale = await site.send(.post, "/pages/items/-/undo", form: "_row=1", browser: true)
            #expect(stale.status == 409, "\(DatabaseTableEditingTests.text(stale))")
            let (one, two) = (try site.item(1), try site.item(2))
            #expect(one == nil && two?["note"] == "later".databaseValue, "nothing undone")
            #expect(await site.send(.post, "/pages/kinds/-/undo", form: "_row=2", browser: true).status == 409, "another table's undo")
            #expect(await site.send(.post, "/pages/items/-/undo", form: "_row=2", browser: true).status == 200)
            let undoneEdit = try site.item(2)
            #expect(undoneEdit?["note"] == "strong".databaseValue)
            // Then the delete is the last change not undone.
            let back = await site.send(.post, "/pages/items/-/undo", form: "_row=1", browser: true, json: false)
            #expect(back.status == 303 && back.headers["Location"] == "/pages/items/rows/1")
            let restored = try site.item(1)
            #expect(restored?["name"] == "Green tea".databaseValue)
        }
    }
}
