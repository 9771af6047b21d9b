import Foundation
import GRDB
import HostileTextSupport
import HTTPTestSupport
import PropertyBased
import TableStore
@testable import TablePagesTestSupport
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// SQLite's `INSERT OR REPLACE` removes every row the new one clashes with on a UNIQUE index, not
/// only the row with its key: each removed row is kept in the audit trail (as a delete, before the
/// new row), so an undo puts them all back; a partial index whose removals cannot be told refuses.
@Suite("A replacing insert keeps every row it removes")
struct TableWriterReplaceTests {
    static let author = WriteAuthor(actorID: "token:editor:0123", name: "editor", channel: .api)

    static func withWriters(_ body: (TableWriters, Store, DatabaseAuditTrail) async throws -> Void) async throws {
        let database = try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT UNIQUE COLLATE NOCASE, code TEXT, note TEXT DEFAULT 'd');
                CREATE UNIQUE INDEX tag_code ON tag (code);
                INSERT INTO tag (id, name, code) VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'z'), (4, 'e', 'w');
                CREATE TABLE flag (id INTEGER PRIMARY KEY, code TEXT, live INTEGER);
                CREATE UNIQUE INDEX flag_live_code ON flag (code) WHERE live = 1;
                INSERT INTO flag VALUES (1, 'p', 1), (2, 'p', 0);
                """)
        }
        defer { database.remove() }
        try await DatabaseAuditTrailTests.withTrail { audit in
            let store = try Store.openExisting(path: database.path, writable: true)
            var pages = PageRegistry()
            try await body(try DatabaseTablePages.registerWritable(store: store, in: &pages, audit: audit), store, audit)
        }
    }

    static func rows(_ store: Store, _ table: String) throws -> [[SQLValue]] {
        try store.read { db in try db.rows("SELECT * FROM \(table) ORDER BY id").map(\.values) }
    }

    @Test("Rows removed for clashing on another UNIQUE column (with its collation) are kept as deletes, and undone")
    func clashingRowsAreAuditedAndUndone() async throws {
        try await Self.withWriters { writers, store, audit in
            let before = try Self.rows(store, "tag")
            // Key 1, the name of row 2 (NOCASE), the code of row 3: SQLite removes all three.
            let keys = try await writers.writer(forTable: "tag").insert([["id": 1, "name": "B", "code": "z"]], onConflict: .replace, by: Self.author)
            #expect(keys == [RowKey([1])])
            #expect(try Self.rows(store, "tag") == [[1, "B", "z", "d"], [4, "e", "w", "d"]])
            let records = try audit.records(before: nil, limit: 10, tables: nil).reversed().map(\.entry)
            #expect(records.map(\.action) == [.delete, .delete, .update])
            #expect(Set(records.prefix(2).map(\.key)) == [RowKey([2]), RowKey([3])] && records[2].key == RowKey([1]))
            let removed = Dictionary(uniqueKeysWithValues: records.prefix(2).map { ($0.key, $0.old) })
            #expect(removed[RowKey([2])]??["name"] == "b" && removed[RowKey([3])]??["code"] == "z" && records[2].old?["name"] == "a")

            _ = try await writers.undoLast(by: Self.author)
            #expect(try Self.rows(store, "tag") == before, "every removed row is back")
        }
    }

    /// A replacing insert: a key of 1–6 or none, a name and a code from small pools (so that they
    /// clash often; NULL never clashes), each its own write.
    static let replaces = zip(
        Gen.int(in: 0...6), Gen.element(of: ["a", "A", "b", "e", "f", ""]), Gen.element(of: ["x", "y", "z", "w", "v", ""])
    ).map { id, name, code -> [String: SQLValue] in
        var row: [String: SQLValue] = [:]
        if id > 0 { row["id"] = .integer(Int64(id)) }
        if let name, !name.isEmpty { row["name"] = .text(name) }
        if let code, !code.isEmpty { row["code"] = .text(code) }
        return row
    }

    @Test("Random replaces, each undone in turn, give back each table before it: every removed row was kept")
    func randomReplacesUndoneInTurn() async {
        await propertyCheckFailingOnThrow(count: 25, input: Self.replaces.array(of: 1...6)) { writes in
            try await Self.withWriters { writers, store, audit in
                let tags = try writers.writer(forTable: "tag")
                var states = [try Self.rows(store, "tag")]
                for row in writes {
                    _ = try await tags.insert([row], onConflict: .replace, by: Self.author)
                    // A replace by the same values changes nothing, and is no write to undo.
                    let now = try Self.rows(store, "tag")
                    if now != states.last { states.append(now) }
                }
                for expected in states.dropLast().reversed() {
                    _ = try await writers.undoLast(by: Self.author)
                    #expect(try Self.rows(store, "tag") == expected, "\(writes)")
                }
                #expect(try audit.records(before: nil, limit: 1000, tables: nil).count >= 2 * (states.count - 1), "each write and its undo kept")
            }
        }
    }

    @Test("A replace that removes nothing else is an insert or an update, as before")
    func plainReplace() async throws {
        try await Self.withWriters { writers, store, audit in
            let tags = try writers.writer(forTable: "tag")
            _ = try await tags.insert([["name": "new", "code": "n"]], onConflict: .replace, by: Self.author)
            _ = try await tags.insert([["id": 4, "name": "E"]], onConflict: .replace, by: Self.author)
            let records = try audit.records(before: nil, limit: 10, tables: nil).reversed().map(\.entry)
            #expect(records.map(\.action) == [.insert, .update])
            #expect(records[1].old?["code"] == "w" && records[1].new?["code"] == .null)
            #expect(try Self.rows(store, "tag").count == 5)
        }
    }

    @Test("A partial UNIQUE index: a replace it does not touch is written; one that removes a row by it is refused, nothing written")
    func partialIndex() async throws {
        try await Self.withWriters { writers, store, audit in
            let flags = try writers.writer(forTable: "flag")
            _ = try await flags.insert([["id": 3, "code": "p", "live": 0]], onConflict: .replace, by: Self.author)
            #expect(try Self.rows(store, "flag").count == 3)
            let refused = await thrownError { () async throws(TableWriteError) in
                _ = try await flags.insert([["id": 5, "code": "p", "live": 1]], onConflict: .replace, by: Self.author)
            }
            guard case .invalid(nil, let message)? = refused else { Issue.record("not refused: \(String(describing: refused))"); return }
            #expect(message.contains("partial or expression UNIQUE index"))
            #expect(try Self.rows(store, "flag") == [[1, "p", 1], [2, "p", 0], [3, "p", 0]])
            #expect(try audit.records(before: nil, limit: 10, tables: nil).count == 1)
        }
    }
}
