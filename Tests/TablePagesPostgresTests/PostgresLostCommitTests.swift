import Foundation
import HTTPTestSupport
import Logging
@testable import TablePagesDatabase
@testable import TablePagesPostgres
import TableStore
import TableStorePostgres
import Testing

/// A write whose connection dies just before its `COMMIT`, on a pool of one connection: the
/// lookup that settles it needs the dead connection's place in the pool. When the lookup ran
/// with the dead lease still held, it waited out the whole wait for a connection and answered
/// 500 ("cannot be told"); the lease is given back first now, and the answer is the truth: 503,
/// nothing was written.
@Suite("A PostgreSQL write lost at COMMIT", .serialized)
struct PostgresLostCommitTests {
    @Test func aWriteLostAtCommitOnAFullPoolIsSettledWithinTheWait() async throws {
        let cluster = try await OwnThread.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let url = try PostgresURL(cluster.url)
        var logger = Logger(label: "PostgresLostCommitTests")
        logger.logLevel = .critical
        let other = try PostgresStore(url: url)
        let tables = try PostgresTablePages(url: url, watch: false, writable: true, maximumConnections: 1, logger: logger)
        let running = [Task { try await other.run() }, Task { try await tables.run() }]
        defer {
            other.stop()
            for task in running { task.cancel() }
        }
        try await other.transactionOnOwnThread { try $0.execute("CREATE TABLE item (id integer PRIMARY KEY, name text NOT NULL)") }
        let executor = tables.executor
        let (outcome, seconds) = try await OwnThread.run { () throws -> (String, Double) in
            let trail = try DatabaseAuditTrail.postgres(database: executor)
            let started = ContinuousClock.now
            let outcome: String
            do {
                _ = try executor.transaction { db in
                    try db.execute("INSERT INTO item VALUES (1, 'lost')", [])
                    let entry = AuditEntry(
                        time: Date(), author: WriteAuthor(actorID: "test", name: "test", channel: .api), table: "item",
                        key: RowKey([.integer(1)]), action: .insert, old: nil, new: ["name": .text("lost")]
                    )
                    try trail.record([entry], writing: db)
                    // Another client ends this connection, as a server restart would, before COMMIT.
                    let pid = try db.row("SELECT pg_backend_pid()", [])?.int64(0) ?? 0
                    try other.transaction { try $0.execute("SELECT pg_terminate_backend(\(pid))", []) }
                    Thread.sleep(forTimeInterval: 0.3)
                    return 0
                }
                outcome = "written"
            } catch let error as TableWriteError {
                outcome = "\(error)"
            }
            return (outcome, (ContinuousClock.now - started) / .seconds(1))
        }
        #expect(outcome.contains("retryable: true"), "\(outcome)")
        #expect(outcome.contains("it was not written"), "\(outcome)")
        // Settled at once, not after the 10 s wait for a connection.
        #expect(seconds < 5, "\(seconds) s")
        let rows = try await other.transactionOnOwnThread { try $0.row("SELECT count(*) FROM item", [])?.int64(0) }
        #expect(rows == 0)
    }
}
