import GRDB
import TableStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `Store.open(path:migrations:)`: a schema in SQL, with no GRDB in the app's code, and the
/// version clock on every table.
@Suite("Store migrations in SQL")
struct StoreMigrationsTests {
    static let first: KeyValuePairs = [
        "create book": "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL)",
        "first book": "INSERT INTO book (title) VALUES ('Middlemarch')",
    ]

    @Test func eachMigrationRunsOnceInOrderAndEveryTableAdvancesTheClock() throws {
        let path = StoreTests.temporaryPath()
        do {
            let store = try Store.open(path: path, migrations: Self.first)
            let start = try #require(try store.dataVersion(), "the tables have a version clock")
            #expect(system("sqlite3 '\(path)' \"INSERT INTO book (title) VALUES ('from the shell')\"") == 0)
            #expect(try #require(try store.dataVersion()) > start, "a write of the sqlite3 shell advances it")
        }
        // Reopened with one more migration: the first two do not run again, the new table is clocked.
        let store = try Store.open(path: path, migrations: [
            "create book": "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL)",
            "first book": "INSERT INTO book (title) VALUES ('Middlemarch')",
            "create note": "CREATE TABLE note (id INTEGER PRIMARY KEY, book INTEGER, body TEXT)",
        ])
        #expect(try store.snapshot { db in try db.rows("SELECT title FROM book ORDER BY id").map { try $0.string(0) } } == ["Middlemarch", "from the shell"])
        let before = try #require(try store.dataVersion())
        try store.transaction { db in try db.execute("INSERT INTO note (book, body) VALUES (1, 'long')") }
        #expect(try #require(try store.dataVersion()) > before)
    }

    @Test func aFullTextTableAndItsShadowTablesAreLeftUnclocked() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrations: [
            "search": "CREATE VIRTUAL TABLE search USING fts5(body)",
            "book": "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT)",
        ])
        let triggers = try store.snapshot { db in try db.rows("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'").map { try $0.string(0) } }
        #expect(Set(triggers) == ["book"])
    }

    @Test func aMigrationTheDatabaseRefusesStopsTheOpen() throws {
        #expect(throws: (any Error).self) {
            try Store.open(path: StoreTests.temporaryPath(), migrations: ["broken": "CREATE TABLE (oops"])
        }
    }

    @Test func anObserverStopsWhenToldTo() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrations: Self.first)
        let counter = StoreTests.Counter()
        let stop = store.onChange { counter.increment() }
        try store.transaction { db in try db.execute("INSERT INTO book (title) VALUES ('a')") }
        #expect(counter.count == 1)
        stop()
        try store.transaction { db in try db.execute("INSERT INTO book (title) VALUES ('b')") }
        #expect(counter.count == 1, "a stopped observer is not called")
    }
}
