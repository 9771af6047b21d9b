import Foundation
import GRDB
import HTTPTestSupport
import Logging
import TableStore
@testable import TablePagesTestSupport
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// Datasette's inserts, upserts and the rows of a create go through the table's writer: each row
/// is in the audit trail as the API's, and its author can undo it (a checked write), while the
/// rows stored are Datasette's (an upsert sets to NULL a column another row of the request names).
@Suite("Datasette's inserts and upserts in the audit trail")
struct DatasetteWriterAuditTests {
    static let scripted = WriteAuthor(actorID: "token:scripted:0123", name: "scripted", channel: .api)
    static let other = WriteAuthor(actorID: "session:other", name: "signed-in browser", channel: .browser)

    struct Fixture {
        let store: Store
        let writers: TableWriters
        let audit: DatabaseAuditTrail
        let writer: DatasetteWriter

        /// `dogs`' rows as (id, name, age), by id.
        func dogs() throws -> [[SQLValue]] {
            try store.read { db in try db.rows("SELECT id, name, age FROM dogs ORDER BY id").map(\.values) }
        }
    }

    static func withFixture(_ body: (Fixture) async throws -> Void) async throws {
        let database = try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE dogs (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER CHECK (age >= 0));
                INSERT INTO dogs VALUES (1, 'Cleo', 5), (2, 'Pancakes', 3);
                """)
        }
        defer { database.remove() }
        try await DatabaseAuditTrailTests.withTrail { audit in
            let store = try Store.openExisting(path: database.path, writable: true)
            var pages = PageRegistry()
            let writers = try DatabaseTablePages.registerWritable(store: store, in: &pages, audit: audit)
            let writer = DatasetteWriter(store: store, logger: Logger(label: "test"))
            try await body(Fixture(store: store, writers: writers, audit: audit, writer: writer))
        }
    }

    static func request(_ json: String, upsert: Bool = false) throws -> DatasetteWriteRequest.Insert {
        try DatasetteWriteRequest.insert(Array(json.utf8), pks: ["id"], columns: ["id", "name", "age"], upsert: upsert, maxRows: 100)
    }

    @Test("An insert and an upsert are kept as the API's, row by row, and undone by their author, last first")
    func insertAndUpsertAreAuditedAndUndone() async throws {
        try await Self.withFixture { fixture in
            let writer = fixture.writer
            _ = try writer.insert(try Self.request(#"{"rows": [{"name": "Rex", "age": 2}]}"#), into: "dogs", pks: ["id"], upsert: false, audit: fixture.audit, by: Self.scripted)
            // Datasette's upsert: the second row names no age, but the first does, so its age becomes NULL.
            let returned = try writer.insert(
                try Self.request(#"{"rows": [{"id": 1, "name": "Cleo", "age": 9}, {"id": 2, "name": "P"}], "return": true}"#, upsert: true),
                into: "dogs", pks: ["id"], upsert: true, audit: fixture.audit, by: Self.scripted
            )
            #expect(returned?.count == 2)
            #expect(try fixture.dogs() == [[1, "Cleo", 9], [2, "P", .null], [3, "Rex", 2]])
            let records = try fixture.audit.records(before: nil, limit: 10, tables: nil)
            #expect(records.map(\.entry.action) == [.update, .update, .insert], "newest first: the upsert's two rows, then the insert")
            #expect(records.allSatisfy { $0.entry.author == Self.scripted && $0.entry.table == "dogs" })
            #expect(records[0].entry.old?["age"] == 3 && records[0].entry.new?["age"] == .null)
            #expect(records[2].entry.new == ["id": 3, "name": "Rex", "age": 2])

            let upsertUndone = try await fixture.writers.undoLast(by: Self.scripted)
            #expect(upsertUndone.keys.count == 2)
            #expect(try fixture.dogs() == [[1, "Cleo", 5], [2, "Pancakes", 3], [3, "Rex", 2]])
            _ = try await fixture.writers.undoLast(by: Self.scripted)
            #expect(try fixture.dogs() == [[1, "Cleo", 5], [2, "Pancakes", 3]])
        }
    }

    @Test("Batches over several statements keep every row's exact old and new values; a key written twice keeps each step")
    func batchedWritesAreAuditedRowByRow() async throws {
        try await Self.withFixture { fixture in
            func request(_ rows: [String], _ options: String = "", upsert: Bool) throws -> DatasetteWriteRequest.Insert {
                let json = #"{"rows": ["# + rows.joined(separator: ", ") + "]" + options + "}"
                return try DatasetteWriteRequest.insert(Array(json.utf8), pks: ["id"], columns: ["id", "name", "age"], upsert: upsert, maxRows: 1000)
            }
            // 401 rows of 3 columns: two statements (999 parameters at most). Ids 1 and 2 exist; id 2
            // comes again in the first statement, id 5 again in the second.
            var rows = (1...399).map { #"{"id": \#($0), "name": "n\#($0)", "age": \#($0 % 7)}"# }
            rows.insert(#"{"id": 2, "name": "twice", "age": 0}"#, at: 200)
            rows.append(#"{"id": 5, "name": "again", "age": 1}"#)
            _ = try fixture.writer.insert(try request(rows, upsert: true), into: "dogs", pks: ["id"], upsert: true, audit: fixture.audit, by: Self.scripted)
            var entries = try fixture.audit.records(before: nil, limit: 2000, tables: nil).reversed().map(\.entry)
            #expect(entries.count == 401)
            #expect(entries[0].action == .update && entries[0].old == ["id": 1, "name": "Cleo", "age": 5] && entries[0].new == ["id": 1, "name": "n1", "age": 1])
            #expect(entries[1].old == ["id": 2, "name": "Pancakes", "age": 3] && entries[1].new == ["id": 2, "name": "n2", "age": 2])
            #expect(entries[2].action == .insert && entries[2].old == nil && entries[2].new == ["id": 3, "name": "n3", "age": 3])
            #expect(entries[200].action == .update && entries[200].old == ["id": 2, "name": "n2", "age": 2] && entries[200].new == ["id": 2, "name": "twice", "age": 0])
            #expect(entries[400].action == .update && entries[400].old == ["id": 5, "name": "n5", "age": 5] && entries[400].new == ["id": 5, "name": "again", "age": 1])
            #expect(try fixture.dogs().count == 399)

            // A replace of 600 rows of 2 columns (two statements; no UNIQUE index but the rowid):
            // 399 rows replaced (their age back to NULL), 201 new.
            let replacing = (1...600).map { #"{"id": \#($0), "name": "r\#($0)"}"# }
            _ = try fixture.writer.insert(try request(replacing, #", "replace": true"#, upsert: false), into: "dogs", pks: ["id"], upsert: false, audit: fixture.audit, by: Self.scripted)
            entries = Array(try fixture.audit.records(before: nil, limit: 2000, tables: nil).prefix(600).reversed().map(\.entry))
            #expect(entries.map(\.action) == Array(repeating: .update, count: 399) + Array(repeating: .insert, count: 201))
            #expect(entries[1].old == ["id": 2, "name": "twice", "age": 0] && entries[1].new == ["id": 2, "name": "r2", "age": .null])
            #expect(entries[599].old == nil && entries[599].new == ["id": 600, "name": "r600", "age": .null])
            #expect(try fixture.dogs().count == 600)
        }
    }

    @Test("Undoing an API insert whose row someone changed since is a 409 that writes nothing")
    func undoOfAMovedRowIsAConflict() async throws {
        try await Self.withFixture { fixture in
            _ = try fixture.writer.insert(try Self.request(#"{"row": {"name": "Rex"}}"#), into: "dogs", pks: ["id"], upsert: false, audit: fixture.audit, by: Self.scripted)
            _ = try await fixture.writers.writer(forTable: "dogs").update(RowKey([3]), set: ["age": 4], seen: nil, by: Self.other)
            let refused = await thrownError { () async throws(TableWriteError) in _ = try await fixture.writers.undoLast(by: Self.scripted) }
            guard case .conflict(let current)? = refused else { Issue.record("not a conflict: \(String(describing: refused))"); return }
            #expect(current?["age"] == 4)
            #expect(try fixture.dogs().count == 3)
        }
    }

    @Test("A create's rows are kept too; a refused row writes none of them, and keeps nothing")
    func createRowsAndRefusals() async throws {
        try await Self.withFixture { fixture in
            let create = try DatasetteWriteRequest.create(Array(#"{"table": "cats", "rows": [{"id": 1, "name": "Tom"}, {"id": 2, "name": "Kit"}], "pk": "id"}"#.utf8), maxRows: 100)
            _ = try fixture.writer.create(create, existingKey: nil, audit: fixture.audit, by: Self.scripted)
            let kept = try fixture.audit.records(before: nil, limit: 10, tables: ["cats"])
            #expect(kept.map { $0.entry.new?["name"] } == ["Kit", "Tom"] && kept.allSatisfy { $0.entry.action == .insert })

            let bad = try Self.request(#"{"rows": [{"name": "ok"}, {"name": "neg", "age": -1}]}"#)
            #expect(throws: DatasetteWriter.Refused.self) {
                try fixture.writer.insert(bad, into: "dogs", pks: ["id"], upsert: false, audit: fixture.audit, by: Self.scripted)
            }
            #expect(try fixture.dogs().count == 2)
            #expect(try fixture.audit.records(before: nil, limit: 10, tables: ["dogs"]).isEmpty)
        }
    }

    @Test("An ignored row is not kept; a replaced row is kept as an update")
    func ignoreAndReplace() async throws {
        try await Self.withFixture { fixture in
            let ignored = try fixture.writer.insert(
                try Self.request(#"{"rows": [{"id": 1, "name": "Dup"}], "ignore": true, "return": true}"#),
                into: "dogs", pks: ["id"], upsert: false, audit: fixture.audit, by: Self.scripted
            )
            #expect(ignored?.first?.first { $0.0 == "name" }?.1 == "Cleo", "the row it clashed with is returned")
            #expect(try fixture.audit.records(before: nil, limit: 10, tables: nil).isEmpty)
            _ = try fixture.writer.insert(try Self.request(#"{"rows": [{"id": 1, "name": "Cleo2"}], "replace": true}"#), into: "dogs", pks: ["id"], upsert: false, audit: fixture.audit, by: Self.scripted)
            let records = try fixture.audit.records(before: nil, limit: 10, tables: nil)
            #expect(records.map(\.entry.action) == [.update])
            #expect(records.first?.entry.old?["age"] == 5 && records.first?.entry.new?["age"] == .null, "REPLACE leaves out the age")
        }
    }
}
