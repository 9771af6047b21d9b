import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTestSupport
import Logging
@testable import TablePagesDatabase
@testable import TablePagesPostgres
import TableStore
import TableStorePostgres
import Testing

/// A write whose connection dies just before its `COMMIT`, on a pool of one connection, settled
/// by looking up its write id in the audit trail: the lookup needs the dead connection's place in
/// the pool, and all of it takes at most the executor's wait for a connection (10 s).
@Suite("A PostgreSQL write lost at COMMIT", .serialized)
struct PostgresLostCommitTests {
    /// How a write lost at COMMIT was answered, and how long that took.
    struct Settled {
        let answer: String
        let seconds: Double
        let rowsWritten: Int64?
    }

    /// Runs one write on a pool of one connection without a time limit (each statement waits up
    /// to 35 s for its answer), whose body records an audit entry, runs
    /// `meanwhile` (given the cluster's URL), and has another client end its connection before
    /// `COMMIT` is sent, as a server restart would.
    static func loseCommit(meanwhile: @escaping @Sendable (String) -> Void = { _ in }) async throws -> Settled {
        let cluster = try await OwnThread.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let url = try PostgresURL(cluster.url)
        var logger = Logger(label: "PostgresLostCommitTests")
        logger.logLevel = .critical
        let other = try PostgresStore(url: url)
        let tables = try PostgresTablePages(url: url, watch: false, writable: true, queryTimeLimit: nil, maximumConnections: 1, logger: logger)
        let running = [Task { try await other.run() }, Task { try await tables.run() }]
        defer {
            other.stop()
            for task in running { task.cancel() }
        }
        try await other.transactionOnOwnThread { try $0.execute("CREATE TABLE item (id integer PRIMARY KEY, name text NOT NULL)") }
        let executor = tables.executor
        let (answer, seconds) = try await OwnThread.run { () throws -> (String, Double) in
            let trail = try DatabaseAuditTrail.postgres(database: executor)
            let started = ContinuousClock.now
            do {
                _ = try executor.transaction { db in
                    try db.execute("INSERT INTO item VALUES (1, 'lost')", [])
                    let entry = AuditEntry(
                        time: Date(), author: WriteAuthor(actorID: "test", name: "test", channel: .api), table: "item",
                        key: RowKey([.integer(1)]), action: .insert, old: nil, new: ["name": .text("lost")]
                    )
                    try trail.record([entry], writing: db)
                    meanwhile(cluster.url)
                    let pid = try db.row("SELECT pg_backend_pid()", [])?.int64(0) ?? 0
                    try other.transaction { try $0.execute("SELECT pg_terminate_backend(\(pid))", []) }
                    Thread.sleep(forTimeInterval: 0.3)
                    return 0
                }
                return ("written", (ContinuousClock.now - started) / .seconds(1))
            } catch let error as TableWriteError {
                return ("\(error)", (ContinuousClock.now - started) / .seconds(1))
            }
        }
        let rows = try await other.transactionOnOwnThread { try $0.row("SELECT count(*) FROM item", [])?.int64(0) }
        return Settled(answer: answer, seconds: seconds, rowsWritten: rows)
    }

    /// The dead connection's place in the pool is taken by the lookup's. (This held on the old
    /// code too, which looked up with the dead lease still held: postgres-nio frees a closed
    /// connection's place though it is leased; the lease is now given back first regardless.)
    @Test func aWriteLostAtCommitOnAFullPoolIsAnsweredNotWritten() async throws {
        let settled = try await Self.loseCommit()
        #expect(settled.answer.contains("retryable: true") && settled.answer.contains("it was not written"), "\(settled.answer)")
        #expect(settled.seconds < 5, "\(settled.seconds) s")
        #expect(settled.rowsWritten == 0)
    }

    /// The lookup's statement cannot be answered (another client holds the trail locked for
    /// 20 s): it is given up when the 10 s are over. On the old code each lookup waited for its
    /// answer as long as any statement (35 s here), and answered after 20 s.
    @Test func theWholeLookupIsBoundedByTheWaitForAConnection() async throws {
        let settled = try await Self.loseCommit { url in
            // Queued behind the write's own lock on the trail, it takes the trail when the write ends.
            _ = system("psql '\(url)' -c 'LOCK TABLE tablepages.audit_log; SELECT pg_sleep(20)' > /dev/null 2>&1 &")
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, !Self.lockIsAwaited(url) { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(settled.answer.contains("retryable: false") && settled.answer.contains("cannot be told"), "\(settled.answer)")
        #expect(settled.seconds >= 9 && settled.seconds < 12, "\(settled.seconds) s")
    }

    /// Whether a session waits for a lock on the trail.
    static func lockIsAwaited(_ url: String) -> Bool {
        let query = "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'tablepages.audit_log'::regclass"
        return system("test \"$(psql -Atq '\(url)' -c \"\(query)\")\" != 0") == 0
    }
}
