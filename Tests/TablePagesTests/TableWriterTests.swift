import Foundation
import GRDB
import HostileTextSupport
import HTTPTestSupport
import Logging
import PropertyBased
import Synchronization
import TableStore
import Testing
@testable import TablePages
@testable import TablePagesDatabase

extension SQLValue {
    /// Whether the value is text.
    var isText: Bool {
        if case .text = self { true } else { false }
    }
}

/// Keeps the entries a writer records, or refuses them all (`fails`).
final class RecordingAudit: AuditTrail {
    struct Refused: Error {}
    private let kept = Mutex<[AuditEntry]>([])
    private let fails: Bool

    init(fails: Bool = false) {
        self.fails = fails
    }

    var entries: [AuditEntry] { kept.withLock { $0 } }

    func record(_ entries: [AuditEntry], writing session: any SQLSession) throws {
        if fails { throw Refused() }
        kept.withLock { $0 += entries }
    }

    func records(before: Int64?, limit: Int, tables: Set<String>?) throws -> [AuditRecord] { [] }

    func lastUndoableWrite(by actorID: String) throws -> [AuditRecord] { [] }
}

/// The write path on SQLite: one transaction per call, the database's rules as 400s naming the
/// column, checked writes, tables without a primary key written by rowid, views read-only.
@Suite("TableWriter on SQLite")
struct TableWriterTests {
    static let author = WriteAuthor(actorID: "token:editor:0123", name: "editor", channel: .api)

    static func database() throws -> TestDatabase {
        try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE book (
                    id INTEGER PRIMARY KEY, title TEXT NOT NULL, pages INTEGER CHECK (pages > 0),
                    author_id INTEGER REFERENCES author(id), note
                );
                CREATE TABLE strict_item (id INTEGER PRIMARY KEY, qty INTEGER NOT NULL) STRICT;
                CREATE TABLE loose (a, b);
                CREATE TABLE pair (x TEXT, y INTEGER, v TEXT, PRIMARY KEY (x, y)) WITHOUT ROWID;
                CREATE TABLE coded (code TEXT PRIMARY KEY, label TEXT);
                CREATE VIEW long_books AS SELECT * FROM book WHERE pages > 300;
                INSERT INTO author (id, name) VALUES (1, 'Austen');
                INSERT INTO book (id, title, pages, author_id) VALUES (1, 'Emma', 474, 1);
                """)
        }
    }

    /// The writers of `database`'s tables (opened writable), with `audit`.
    static func writers(_ database: TestDatabase, audit: (any AuditTrail)? = RecordingAudit()) throws -> (TableWriters, Store, PageRegistry) {
        let store = try Store.openExisting(path: database.path, writable: true)
        var pages = PageRegistry()
        let writers = try DatabaseTablePages.registerWritable(store: store, in: &pages, audit: audit)
        return (writers, store, pages)
    }

    static func count(_ store: Store, _ table: String) throws -> Int {
        try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? -1 }
    }


    @Test func aBatchIsWrittenWholeOrNotAtAllAndTheRefusalNamesTheColumnAndTheRule() async throws {
        let database = try Self.database()
        defer { database.remove() }
        let (writers, store, _) = try Self.writers(database)
        let books = try writers.writer(forTable: "book")
        let keys = try await books.insert([["title": "Persuasion", "pages": 249, "author_id": 1], ["title": "Sanditon"]], by: Self.author)
        #expect(keys == [RowKey([2]), RowKey([3])], "each row's key, the rowid")
        #expect(try await books.row(keys[0])?["title"] == "Persuasion")

        let refused = await thrownError { () async throws(TableWriteError) in
            _ = try await books.insert([["title": "Lady Susan", "pages": 1], ["pages": 12]], by: Self.author)
        }
        #expect(refused == .constraint(column: "title", rule: .notNull, message: "may not be empty (NOT NULL)"))
        #expect(refused?.httpError.status == 400)
        #expect(try Self.count(store, "book") == 3, "the first row of the refused batch is not written either")
    }

    @Test func theDatabaseRulesAreEachA400NamingTheColumn() async throws {
        let database = try Self.database()
        defer { database.remove() }
        let (writers, store, _) = try Self.writers(database)
        let books = try writers.writer(forTable: "book")
        let check = await thrownError { () async throws(TableWriteError) in _ = try await books.insert([["title": "Zero", "pages": 0]], by: Self.author) }
        #expect(check == .constraint(column: "pages", rule: .check, message: "refused by the table's rule: pages > 0"))
        let foreignKey = await thrownError { () async throws(TableWriteError) in _ = try await books.insert([["title": "Orphan", "author_id": 99]], by: Self.author) }
        #expect(foreignKey == .constraint(column: "author_id", rule: .foreignKey, message: "no row of the referenced table has this value (FOREIGN KEY)"))
        let unique = await thrownError { () async throws(TableWriteError) in
            _ = try await writers.writer(forTable: "author").insert([["name": "Austen"]], by: Self.author)
        }
        #expect(unique == .constraint(column: "name", rule: .unique, message: "another row already has this value (UNIQUE)"))
        let strict = await thrownError { () async throws(TableWriteError) in
            _ = try await writers.writer(forTable: "strict_item").insert([["qty": "many"]], by: Self.author)
        }
        #expect(strict == .constraint(column: "qty", rule: .type, message: "cannot store TEXT value in INTEGER column"))
        let rowid = await thrownError { () async throws(TableWriteError) in _ = try await books.insert([["id": "x", "title": "T"]], by: Self.author) }
        #expect(rowid == .constraint(column: "id", rule: .type, message: "must be an integer (INTEGER PRIMARY KEY)"))
        let unknown = await thrownError { () async throws(TableWriteError) in _ = try await books.insert([["colour": "red"]], by: Self.author) }
        #expect(unknown == .invalid(column: "colour", message: "book has no such column"))
        #expect(try Self.count(store, "book") == 1, "nothing refused was written")
    }

    @Test func anEditMadeOnStaleValuesIsA409WithTheRowAsItIsNow() async throws {
        let database = try Self.database()
        defer { database.remove() }
        let (writers, _, _) = try Self.writers(database)
        let books = try writers.writer(forTable: "book")
        let emma = RowKey([1])
        let after = try await books.update(emma, set: ["pages": 475], seen: ["title": "Emma", "pages": 474], by: Self.author)
        #expect(after["pages"] == 475 && after["title"] == "Emma")

        let stale = await thrownError { () async throws(TableWriteError) in
            _ = try await books.update(emma, set: ["title": "Emma!"], seen: ["title": "Emma", "pages": 474], by: Self.author)
        }
        guard case .conflict(let current)? = stale else { Issue.record("not a conflict: \(String(describing: stale))"); return }
        #expect(current?["pages"] == 475, "the conflict carries the row now")
        #expect(stale?.httpError.status == 409)
        #expect(try await books.row(emma)?["title"] == "Emma", "the stale edit wrote nothing")

        let staleDelete = await thrownError { () async throws(TableWriteError) in try await books.delete(emma, seen: ["pages": 474], by: Self.author) }
        #expect(staleDelete == .conflict(current: current))
        try await books.delete(emma, seen: ["pages": 475], by: Self.author)
        let gone = await thrownError { () async throws(TableWriteError) in _ = try await books.update(emma, set: ["pages": 1], seen: ["pages": 475], by: Self.author) }
        #expect(gone == .conflict(current: nil), "a row deleted since it was seen is a conflict too")
        let missing = await thrownError { () async throws(TableWriteError) in _ = try await books.update(emma, set: ["pages": 1], seen: nil, by: Self.author) }
        #expect(missing == .notFound)
        #expect(missing?.httpError.status == 404)
    }

    @Test func tablesWithoutAPrimaryKeyAreWrittenByRowidAndCompositeKeysByTheirValues() async throws {
        let database = try Self.database()
        defer { database.remove() }
        let (writers, _, _) = try Self.writers(database)
        let loose = try writers.writer(forTable: "loose")
        let keys = try await loose.insert([["a": 1, "b": "x"], ["a": 2]], by: Self.author)
        #expect(keys == [RowKey([1]), RowKey([2])])
        #expect(loose.rowID(of: keys[1]) == "2" && loose.key(forRowID: "2") == keys[1], "the key is the page's row id")
        _ = try await loose.update(keys[1], set: ["b": "y"], seen: ["a": 2, "b": .null], by: Self.author)
        #expect(try await loose.upsert([["rowid": 2, "a": 3]], by: Self.author) == [keys[1]], "an upsert finds the row by its rowid")
        #expect(try await loose.row(keys[1]) == ["a": 3, "b": "y"])

        let pairs = try writers.writer(forTable: "pair")
        let pair = try #require(try await pairs.insert([["x": "a,b.c", "y": 7, "v": "first"]], by: Self.author).first)
        #expect(pair == RowKey(["a,b.c", 7]))
        #expect(pairs.key(forRowID: pairs.rowID(of: pair)) == pair)
        #expect(try await pairs.upsert([["x": "a,b.c", "y": 7, "v": "second"], ["x": "n", "y": 1]], by: Self.author) == [pair, RowKey(["n", 1])])
        #expect(try await pairs.row(pair)?["v"] == "second")
        let noKey = await thrownError { () async throws(TableWriteError) in _ = try await pairs.upsert([["x": "only"]], by: Self.author) }
        #expect(noKey == .invalid(column: "y", message: "an upsert needs each row's primary key"))

        // A rowid table keyed by text: written by its rowid, upserted by its primary key.
        let coded = try writers.writer(forTable: "coded")
        let first = try await coded.insert([["code": "A", "label": "one"]], by: Self.author)
        #expect(try await coded.upsert([["code": "A", "label": "uno"]], by: Self.author) == first)
        #expect(try await coded.insert([["code": "A", "label": "again"]], onConflict: .ignore, by: Self.author) == [])
        let replaced = try await coded.insert([["code": "A"]], onConflict: .replace, by: Self.author)
        #expect(try await coded.row(try #require(replaced.first)) == ["code": "A", "label": .null], "a replaced row's other columns get their defaults")
    }

    @Test func viewsAreReadOnlyAndOnlyWritableTablesPagesTakeWrites() async throws {
        let database = try Self.database()
        defer { database.remove() }
        let (writers, _, pages) = try Self.writers(database)
        let view = await thrownError { () async throws(TableWriteError) in _ = try writers.writer(forTable: "long_books") }
        guard case .readOnly(let reason)? = view else { Issue.record("a view has a writer"); return }
        #expect(reason.contains("view") && view?.httpError.status == 403)
        #expect(await thrownError { () async throws(TableWriteError) in _ = try writers.writer(forTable: "nothing") } == .notFound)
        #expect(writers.writableTables == ["author", "book", "coded", "loose", "pair", "strict_item"])
        let access = Dictionary(uniqueKeysWithValues: pages.pages.map { ($0.name, $0.access.isReadOnly) })
        #expect(access[DatabaseTablePages.pageName(ofTable: "book")] == false)
        #expect(access[DatabaseTablePages.pageName(ofTable: "long_books")] == true)
        #expect(try writers.writer(forPage: DatabaseTablePages.pageName(ofTable: "book")).table == "book")

        // Served without --writable, every page stays read-only.
        let store = try Store.openExisting(path: database.path, writable: false)
        var readOnly = PageRegistry()
        try DatabaseTablePages.register(store: store, in: &readOnly)
        #expect(readOnly.pages.allSatisfy { $0.access.isReadOnly })
    }

    @Test func everyChangedRowIsAuditedAndAnAuditThatFailsWritesNothing() async throws {
        let database = try Self.database()
        defer { database.remove() }
        let audit = RecordingAudit()
        let (writers, store, _) = try Self.writers(database, audit: audit)
        let books = try writers.writer(forTable: "book")
        let browser = WriteAuthor(actorID: "session:abc", name: "signed-in browser", channel: .browser)
        let key = try #require(try await books.insert([["title": "Mansfield Park"]], by: browser).first)
        _ = try await books.update(key, set: ["pages": 507], seen: nil, by: Self.author)
        try await books.delete(key, seen: nil, by: Self.author)
        let entries = audit.entries
        #expect(entries.map(\.action) == [.insert, .update, .delete])
        #expect(entries.map(\.author) == [browser, Self.author, Self.author])
        #expect(entries.allSatisfy { $0.table == "book" && $0.key == key })
        #expect(entries[0].old == nil && entries[0].new?["title"] == "Mansfield Park")
        #expect(entries[1].old?["pages"] == .null && entries[1].new?["pages"] == 507)
        #expect(entries[2].old?["pages"] == 507 && entries[2].new == nil)

        let (failing, _, _) = try Self.writers(database, audit: RecordingAudit(fails: true))
        let refused = await thrownError { () async throws(TableWriteError) in
            _ = try await failing.writer(forTable: "book").insert([["title": "Unaudited"]], by: Self.author)
        }
        #expect(refused?.httpError.status == 500)
        #expect(try Self.count(store, "book") == 1, "a write the audit trail could not keep is rolled back")
    }

    @Test func aWriteReachesAnOpenPagesLiveStreamAtOnce() async throws {
        let database = try Self.database()
        defer { database.remove() }
        let (writers, store, pages) = try Self.writers(database)
        // No polling to speak of: only the write itself can tell the page.
        store.startWatching(every: .seconds(3600))
        defer { store.stopWatching() }
        try await withSite(pages: pages) { server, _ in
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/\(DatabaseTablePages.pageName(ofTable: "book"))/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            _ = try await writers.writer(forTable: "book").insert([["title": "Written through the writer"]], by: Self.author)
            let text = try await stream.readStream(until: { $0.contains("Written through the writer") }, timeout: .seconds(3))
            #expect(text.contains("Written through the writer"))
        }
    }

    @Test func hostileValuesAreStoredExactlyOrRefusedWhenTextHoldsNUL() async throws {
        let database = try Self.database()
        defer { database.remove() }
        let (writers, _, _) = try Self.writers(database)
        let loose = try writers.writer(forTable: "loose")
        await propertyCheckFailingOnThrow(count: 60, input: DatabaseValueCodingTests.values, DatabaseValueCodingTests.values) { a, b in
            let holdsNUL = [a, b].contains { $0.stringValue?.utf8.contains(0) == true && $0.isText }
            let keys: [RowKey]
            do throws(TableWriteError) {
                keys = try await loose.insert([["a": a, "b": b]], by: Self.author)
            } catch {
                // Text with a NUL is refused (GRDB would cut it short), said so.
                #expect(holdsNUL && error.httpError.status == 400, "\(error)")
                return
            }
            #expect(!holdsNUL, "text with a NUL was taken")
            let key = try #require(keys.first)
            #expect(try await loose.row(key) == ["a": a, "b": b])
            let after = try await loose.update(key, set: ["b": a], seen: ["a": a, "b": b], by: Self.author)
            #expect(after == ["a": a, "b": a])
        }
    }
}
