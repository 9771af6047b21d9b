import GRDB
import Synchronization
import TableStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Store")
struct StoreTests {
    static func temporaryPath() -> String {
        var template = Array("/tmp/tablestore-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return directory + "/test.sqlite"
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        }
        return migrator
    }

    /// Counts change notifications.
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
        func increment() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<100 where !condition() { try? await Task.sleep(for: .milliseconds(20)) }
        return condition()
    }

    @Test func opensInWALModeWithMigrationsAndKeepsDataAcrossReopen() throws {
        let path = Self.temporaryPath()
        do {
            let store = try Store.open(path: path, migrator: Self.migrator)
            try store.write { try $0.execute(sql: "INSERT INTO item (title) VALUES ('milk')") }
            #expect(try store.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        }
        let reopened = try Store.open(path: path, migrator: Self.migrator)
        #expect(try reopened.read { try String.fetchAll($0, sql: "SELECT title FROM item") } == ["milk"])
    }

    @Test func ownWritesNotifyAtOnce() throws {
        let store = try Store.open(path: Self.temporaryPath(), migrator: Self.migrator)
        let counter = Counter()
        store.onChange { counter.increment() }
        try store.write { try $0.execute(sql: "INSERT INTO item (title) VALUES ('a')") }
        #expect(counter.count == 1)
        _ = try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") }
        #expect(counter.count == 1, "reads are not changes")
    }

    @Test func aWriteByAnotherProcessIsNoticed() async throws {
        let path = Self.temporaryPath()
        let store = try Store.open(path: path, migrator: Self.migrator)
        let counter = Counter()
        store.onChange { counter.increment() }
        store.startWatching(every: .milliseconds(50))
        defer { store.stopWatching() }
        #expect(system("sqlite3 '\(path)' \"INSERT INTO item (title) VALUES ('from the shell')\"") == 0)
        #expect(await Self.eventually { counter.count >= 1 })
        #expect(try store.read { try String.fetchOne($0, sql: "SELECT title FROM item") } == "from the shell")
    }

    @Test func existingDatabasesOpenReadOnlyUnlessWritable() throws {
        let path = Self.temporaryPath()
        _ = try Store.open(path: path, migrator: Self.migrator)
        let readOnly = try Store.openExisting(path: path, writable: false)
        #expect(throws: (any Error).self) { try readOnly.write { try $0.execute(sql: "INSERT INTO item (title) VALUES ('x')") } }
        let writable = try Store.openExisting(path: path, writable: true)
        try writable.write { try $0.execute(sql: "INSERT INTO item (title) VALUES ('x')") }
        #expect(try readOnly.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 1)
        #expect(throws: Store.OpenError.self) { try Store.openExisting(path: path + ".missing", writable: false) }
    }

    @Test func anExistingWALDatabaseGetsConcurrentReadersAndOthersOneConnection() throws {
        let walPath = Self.temporaryPath()
        _ = try Store.open(path: walPath, migrator: Self.migrator)
        #expect(try Store.openExisting(path: walPath, writable: false).reader is DatabasePool)
        #expect(try Store.openExisting(path: walPath, writable: true).writer is DatabasePool)
        let rollbackPath = Self.temporaryPath()
        #expect(system("sqlite3 '\(rollbackPath)' 'CREATE TABLE t (x)'") == 0)
        let rollback = try Store.openExisting(path: rollbackPath, writable: false)
        #expect(rollback.reader is DatabaseQueue)
        #expect(try rollback.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "delete", "left as it was")
    }

    @Test func changesAreNoticedWhileSwiftsTaskPoolIsBlocked() async throws {
        let path = StoreTests.temporaryPath()
        let store = try Store.open(path: path, migrator: StoreTests.migrator)
        let noticed = Moment()
        store.onChange { noticed.record(.now) }
        store.startWatching(every: .milliseconds(20))
        defer { store.stopWatching() }
        // Every thread of the cooperative pool blocks for 0.6 s, and one of them has another
        // writer commit meanwhile: a poll that needed the pool would wait for them.
        let other = try DatabaseQueue(path: path)
        let committed = Moment()
        let threads = max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<threads {
                group.addTask {
                    usleep(100_000)
                    if index == 0 { committed.record(Self.insert(into: other)) }
                    usleep(500_000)
                }
            }
        }
        let commit = try #require(committed.value)
        let at = try #require(noticed.value)
        #expect(at - commit < .milliseconds(350), "noticed \(at - commit) after the commit")
    }

    /// The first time something happened.
    final class Moment: Sendable {
        private let first = Mutex<ContinuousClock.Instant?>(nil)
        func record(_ instant: ContinuousClock.Instant?) { first.withLock { $0 = $0 ?? instant } }
        var value: ContinuousClock.Instant? { first.withLock { $0 } }
    }

    /// Inserts a row as another writer would; returns when it committed (nil if it failed).
    static func insert(into queue: DatabaseQueue) -> ContinuousClock.Instant? {
        do {
            try queue.write { try $0.execute(sql: "INSERT INTO item (title) VALUES ('elsewhere')") }
            return .now
        } catch {
            return nil
        }
    }
}
