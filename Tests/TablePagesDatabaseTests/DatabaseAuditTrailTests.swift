import Foundation
import GRDB
import HTTPTestSupport
import TableStore
@testable import TablePagesTestSupport
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// The audit trail of a SQLite database's writes, in a file of TablePages' own: what it keeps,
/// its bound, and undoing an actor's own last change as a checked write.
@Suite("The audit trail and undo on SQLite")
struct DatabaseAuditTrailTests {
    static let editor = WriteAuthor(actorID: "token:editor:0123", name: "editor", channel: .api)
    static let browser = WriteAuthor(actorID: "session:abc", name: "signed-in browser", channel: .browser)

    /// A database, its writers with a trail of `maxRows` in a file of its own, and that file's path.
    static func writers(maxRows: Int = DatabaseAuditTrail.defaultMaxRows) throws -> (TestDatabase, TableWriters, DatabaseAuditTrail, String) {
        let database = try TableWriterTests.database()
        let path = NSTemporaryDirectory() + "tablepages-audit-\(UUID().uuidString).sqlite"
        let audit = try DatabaseAuditTrail.sqlite(path: path, maxRows: maxRows)
        let store = try Store.openExisting(path: database.path, writable: true)
        var pages = PageRegistry()
        return (database, try DatabaseTablePages.registerWritable(store: store, in: &pages, audit: audit), audit, path)
    }

    /// Runs `body` with an audit trail in a file of its own, removed after.
    static func withTrail(_ body: (DatabaseAuditTrail) async throws -> Void) async throws {
        let path = NSTemporaryDirectory() + "tablepages-audit-\(UUID().uuidString).sqlite"
        defer { remove(path) }
        try await body(try DatabaseAuditTrail.sqlite(path: path, maxRows: 1000))
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func everyWriteIsKeptExactlyOutsideTheUsersDatabaseAndTheOldestGoBeyondTheBound() async throws {
        let (database, writers, audit, path) = try Self.writers(maxRows: 3)
        defer { database.remove(); Self.remove(path) }
        let loose = try writers.writer(forTable: "loose")
        let blob = SQLValue.blob(Data([0, 255, 44]))
        let keys = try await loose.insert([["a": "x,y.z\\", "b": blob], ["a": 2.5]], by: Self.editor)
        let after = try await loose.update(keys[0], set: ["a": .null], seen: nil, by: Self.browser)
        let records = try audit.records(before: nil, limit: 10, tables: nil)
        #expect(records.map(\.entry.action) == [.update, .insert, .insert], "newest first")
        #expect(records[0].entry.old == ["a": "x,y.z\\", "b": blob] && records[0].entry.new == after, "values kept with their types")
        #expect(records[0].entry.author == Self.browser && records[1].entry.author == Self.editor)
        #expect(records[1].writeID == records[2].writeID && records[0].writeID != records[1].writeID, "one write id per call")
        #expect(records[2].entry.key == keys[0] && records[2].entry.table == "loose")
        #expect(try audit.records(before: records[0].id, limit: 1, tables: nil) == [records[1]], "paged by number")
        #expect(try audit.records(before: nil, limit: 10, tables: ["book"]).isEmpty)
        _ = try await loose.insert([["a": 4]], by: Self.editor)
        let kept = try audit.records(before: nil, limit: 10, tables: nil)
        #expect(kept.count == 3 && kept.last?.id == records[1].id, "the oldest dropped beyond 3 rows")
        let userTables = try await DatabaseQueue(path: database.path).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master") }
        #expect(!userTables.contains { $0.contains("audit") }, "nothing written to the user's database")
    }

    @Test func aBatchBeyondOneStatementsRowsIsKeptWholeInOrder() async throws {
        let (database, writers, audit, path) = try Self.writers()
        defer { database.remove(); Self.remove(path) }
        let keys = try await writers.writer(forTable: "loose").insert((0..<250).map { ["a": .integer($0)] }, by: Self.editor)
        let records = try audit.records(before: nil, limit: 1000, tables: nil)
        #expect(records.count == 250 && Set(records.map(\.writeID)).count == 1, "one write of 250 rows")
        #expect(records.reversed().map(\.entry.key) == keys, "kept in the order written")
        #expect(records.reversed().map { $0.entry.new?["a"] } == (0..<250).map { SQLValue.integer($0) })
    }

    @Test func anActorUndoesItsOwnLastChangesOneAfterAnotherAndA409WhenTheRowMovedOn() async throws {
        let (database, writers, audit, path) = try Self.writers()
        defer { database.remove(); Self.remove(path) }
        let books = try writers.writer(forTable: "book")
        let emma = RowKey([1])
        let inserted = try await books.insert([["title": "Persuasion"], ["title": "Sanditon"]], by: Self.editor)
        _ = try await books.update(emma, set: ["pages": 500, "title": "Emma."], seen: nil, by: Self.editor)
        try await books.delete(inserted[1], seen: nil, by: Self.editor)
        _ = try await books.update(emma, set: ["note": "someone else's"], seen: nil, by: Self.browser)

        // The delete is undone: the row is back with its own rowid.
        let undone = try await writers.undoLast(by: Self.editor)
        #expect(undone.table == "book" && undone.keys == [inserted[1]])
        #expect(try await books.row(inserted[1])?["title"] == "Sanditon")
        // Another actor changed the updated row since: it is not as the editor left it, so
        // undoing the update is a conflict, and writes nothing.
        let moved = await thrownError { () async throws(TableWriteError) in _ = try await writers.undoLast(by: Self.editor) }
        guard case .conflict(let current)? = moved else { Issue.record("not a conflict: \(String(describing: moved))"); return }
        #expect(current?["note"] == "someone else's" && current?["pages"] == 500)
        #expect(try await books.row(emma)?["title"] == "Emma.")
        // Once the other change is undone by its author, the editor's undo goes through.
        _ = try await writers.undoLast(by: Self.browser)
        _ = try await writers.undoLast(by: Self.editor)
        let restored = try await books.row(emma)
        #expect(restored?["title"] == "Emma" && restored?["pages"] == 474)
        // Then the insert of two rows, as one.
        _ = try await writers.undoLast(by: Self.editor)
        #expect(try await books.row(inserted[0]) == nil)
        #expect(try await books.row(inserted[1]) == nil)
        let nothing = await thrownError { () async throws(TableWriteError) in _ = try await writers.undoLast(by: Self.editor) }
        #expect(nothing == .nothingToUndo && nothing?.httpError.status == 404)
        let undos = try audit.records(before: nil, limit: 100, tables: ["book"]).filter { $0.entry.undoes != nil }
        #expect(undos.count == 5 && undos.allSatisfy { $0.entry.author.actorID != "" }, "each undo is audited as undoing a write")
    }

    @Test func theAuditPageIsForSignedInBrowsersAndTokensThatMayWriteTheTable() async throws {
        let (database, writers, _, path) = try Self.writers()
        defer { database.remove(); Self.remove(path) }
        _ = try await writers.writer(forTable: "book").insert([["title": "<script>alert(1)</script>", "note": .blob(Data([0xff]))]], by: Self.editor)
        _ = try await writers.writer(forTable: "author").insert([["name": "Brontë"]], by: Self.editor)
        let page = try #require(AuditPages(writers: writers, siteTitle: "T", accessControl: AccessControl(settings: AccessSettings())))
        #expect(throws: HTTPError(401, "Sign in to read the audit trail.")) { try page.readableTables(for: nil) }
        #expect(throws: HTTPError(403, "A read-only token may not read the audit trail.")) {
            try page.readableTables(for: Actor(id: "token:reader:1", name: "reader", mayWrite: false))
        }
        #expect(try page.readableTables(for: Actor(id: "session:x", name: "signed-in browser", mayWrite: true)) == nil, "a signed-in browser reads all")
        let scoped = Actor(id: "token:books:1", name: "books", mayWrite: true, pages: [DatabaseTablePages.pageName(ofTable: "book")])
        #expect(try page.readableTables(for: scoped) == ["book"], "a token limited to pages reads those tables' writes")

        let records = try await OwnThread.run { [audit = writers.audit!] in try audit.records(before: nil, limit: 10, tables: ["book"]) }
        let json = try JSONSerialization.jsonObject(with: Data(page.document(records, next: "/-/audit.json?before=1").bytes)) as? [String: Any]
        let entry = try #require((json?["entries"] as? [[String: Any]])?.first)
        #expect(entry["table"] as? String == "book" && entry["action"] as? String == "insert" && entry["actor"] as? String == "editor")
        #expect(entry["row_id"] as? String == "2" && entry["channel"] as? String == "api")
        let new = try #require(entry["new"] as? [String: Any])
        #expect(new["title"] as? String == "<script>alert(1)</script>" && (new["note"] as? [String: Any])?["$base64"] as? Bool == true)
        #expect(json?["next"] as? String == "/-/audit.json?before=1")
        let html = page.html(records, next: nil)
        #expect(!html.contains("<script>") && html.contains("&lt;script&gt;"), "values are escaped")
        #expect(html.contains("href=\"/pages/book/rows/2\""), "the row links to its page")
    }
}
