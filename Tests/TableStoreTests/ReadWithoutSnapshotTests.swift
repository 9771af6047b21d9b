import Dispatch
import Foundation
import GRDB
@testable import TableStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Reads without a snapshot")
struct ReadWithoutSnapshotTests {
    private static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? -1
    }

    @Test func eachStatementSeesWhatWasCommittedBeforeItWhereASnapshotDoesNot() throws {
        let path = StoreTests.temporaryPath()
        let store = try Store.open(path: path, migrator: StoreTests.migrator)
        // Another process's connections, as far as the store can tell.
        let other = try Store.openExisting(path: path, writable: true)
        func insert() throws { try other.write { try $0.execute(sql: "INSERT INTO item (title) VALUES ('x')") } }

        let inSnapshot = try store.read { db in
            let before = try Self.count(db)
            try insert()
            return (before, try Self.count(db))
        }
        #expect(inSnapshot == (0, 0), "one snapshot for the whole read")
        let withoutSnapshot = try store.readWithoutSnapshot { db in
            let before = try Self.count(db)
            try insert()
            return (before, try Self.count(db))
        }
        #expect(withoutSnapshot == (1, 2), "each statement sees the last commit")
    }

    @Test func itsConnectionsCannotWrite() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        #expect(throws: DatabaseError.self) {
            try store.readWithoutSnapshot { try $0.execute(sql: "INSERT INTO item (title) VALUES ('x')") }
        }
        #expect(try store.read(Self.count) == 0)
        // The store still writes, and the connection that refused still reads.
        try store.write { try $0.execute(sql: "INSERT INTO item (title) VALUES ('y')") }
        #expect(try store.readWithoutSnapshot(Self.count) == 1)
    }

    @Test func itKeepsTheQueryTimeLimit() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        store.queryTimeLimit = .milliseconds(50)
        #expect(throws: QueryTimeLimitExceeded.self) {
            try store.readWithoutSnapshot { db in
                try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5000000000) SELECT count(*) FROM c")
            }
        }
        store.queryTimeLimit = nil
        #expect(try store.readWithoutSnapshot(Self.count) == 0, "no limit left behind on the connection")
    }

    @Test func atMostEightConnectionsAreKeptIdleHoweverManyReadAtOnce() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        #expect(store.idleReadConnectionCount == 0)
        _ = try store.readWithoutSnapshot(Self.count)
        _ = try store.readWithoutSnapshot(Self.count)
        #expect(store.idleReadConnectionCount == 1, "a read returns its connection for the next")
        // 16 reads at once, each held until all 16 have a connection: 16 connections, 8 kept.
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<16 {
            done.enter()
            Thread.detachNewThread {
                _ = try? store.readWithoutSnapshot { db in
                    inside.signal()
                    release.wait()
                    return try Self.count(db)
                }
                done.leave()
            }
        }
        for _ in 0..<16 { inside.wait() }
        for _ in 0..<16 { release.signal() }
        done.wait()
        #expect(store.idleReadConnectionCount == ReadConnections.maxIdle)
    }

    @Test func aDatabaseNotInWALModeReadsOnItsOneConnection() throws {
        let path = StoreTests.temporaryPath()
        #expect(system("sqlite3 '\(path)' 'CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO item (title) VALUES (1)'") == 0)
        let store = try Store.openExisting(path: path, writable: false)
        #expect(store.idleReadConnectionCount == nil)
        #expect(try store.readWithoutSnapshot(Self.count) == 1)
    }
}
