import GRDB
import TableStore
import Testing

@Suite("A version read in the snapshot it names")
struct VersionedSnapshotTests {
    static var migrator: DatabaseMigrator {
        var migrator = StoreTests.migrator
        migrator.registerMigration("clock") { db in try SQLiteChangeClock.install(on: ["item"], in: db) }
        return migrator
    }

    @Test func aWriteCommittedBetweenTheFetchAndTheVersionReadDoesNotLabelTheOlderRowsWithItsVersion() throws {
        let path = StoreTests.temporaryPath()
        let store = try Store.open(path: path, migrator: Self.migrator)
        // Another writer on the same file, as another process would be.
        let other = try Store.open(path: path, migrator: Self.migrator)
        try store.write { db in try db.execute(sql: "INSERT INTO item (title) VALUES ('a')") }
        let before = try #require(try store.dataVersion())

        let (titles, version) = try store.versionedSnapshot { db in
            let titles = try db.rows("SELECT title FROM item ORDER BY id").map { try $0.string(0) }
            try other.write { db in try db.execute(sql: "INSERT INTO item (title) VALUES ('b')") }
            return titles
        }

        #expect(titles == ["a"])
        #expect(version == before, "the rows of version \(before) were labelled \(version.map(String.init) ?? "nil")")
        #expect(try store.dataVersion() == before + 1)
    }

    @Test func aDatabaseWithoutAClockReadsWithoutAVersion() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        let (count, version) = try store.versionedSnapshot { db in try db.rows("SELECT count(*) FROM item").count }
        #expect(count == 1 && version == nil)
    }
}
