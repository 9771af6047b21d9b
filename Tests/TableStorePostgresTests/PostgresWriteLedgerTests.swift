import Foundation
import HTTPTestSupport
import Logging
import PostgresNIO
import Testing
import TableStore
@testable import TableStorePostgres

/// A write whose COMMIT went unanswered is settled by its write id in `tablepages_writes`, not by
/// its transaction id alone, which a restarted server may have given to another transaction.
@Suite("Settling an unanswered COMMIT by the write id")
struct PostgresWriteLedgerTests {
    private static let logger = Logger(label: "test")
    private static let failure = TableStorePostgres.PostgresError(description: "the connection failed after COMMIT")

    @Test(
        "a recorded id is committed; a missing one is not, even when its transaction id committed; a running one is awaited; a future or overwritten one is told apart",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/postgresql"), "needs Debian's postgresql (make test-deps)")
    )
    func settling() async throws {
        let cluster = try await onThread { try PostgresTestCluster() }
        defer { cluster.stop() }
        let store = try PostgresStore(url: try PostgresURL(cluster.url), connectionWait: .seconds(5))
        let running = Task { try await store.run() }
        defer {
            store.stop()
            running.cancel()
        }
        let configuration = try PostgresURL(cluster.url).connectionConfiguration(applicationName: "test")
        let logger = Self.logger
        let first = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        let second = try await PostgresConnection.connect(configuration: configuration, id: 2, logger: logger)
        let one = PostgresSession(connection: first, answerWait: .seconds(10), logger: logger)
        let two = PostgresSession(connection: second, answerWait: .seconds(10), logger: logger)
        try await onThread {
            // The first write installs the ledger, and records itself in it.
            try store.transaction { db in _ = try db.row("SELECT 1") }
            #expect(try one.row("SELECT count(*) FROM tablepages_writes")?.int64(0) == 1)

            let committed = try Self.write(on: one, ending: "COMMIT")
            #expect(Self.settles(committed, store) == .committed)
            let rolledBack = try Self.write(on: one, ending: "ROLLBACK")
            #expect(Self.settles(rolledBack, store) == .notCommitted)

            // A crash's reuse of a transaction id: the id of a committed write, but another write
            // id (one whose transaction rolled back). txid_status alone would call it committed.
            let reused = PostgresWriteTicket(transactionID: committed.transactionID, writeID: rolledBack.writeID, sequence: rolledBack.sequence)
            #expect(try one.row("SELECT txid_status(?)", [.integer(reused.transactionID)])?.string(0) == "committed")
            #expect(Self.settles(reused, store) == .notCommitted)

            // A transaction id past any the server handed out: it restarted without the write.
            let future = PostgresWriteTicket(transactionID: committed.transactionID + 1_000_000, writeID: UUID().uuidString, sequence: committed.sequence! + 1_000_000)
            #expect(Self.settles(future, store) == .notCommitted)

            // A slot taken by a later write before the lookup: not guessed.
            let sequence = try #require(committed.sequence)
            try one.execute("SELECT setval('tablepages_write_sequence', ?)", [.integer(sequence + Int64(PostgresWriteLedger.capacity) - 1)])
            let later = try Self.write(on: one, ending: "COMMIT")
            #expect(later.sequence.map(PostgresWriteLedger.slot(of:)) == PostgresWriteLedger.slot(of: sequence))
            #expect(Self.settles(committed, store) == .unknown)
            #expect(Self.settles(later, store) == .committed)

            // Still in progress (the server has not noticed the connection's loss): awaited.
            for ending in ["COMMIT", "ROLLBACK"] {
                try two.execute("BEGIN")
                let running = try #require(try PostgresStore.takeTicket(in: two, ledger: true))
                let started = ContinuousClock.now
                let ender = Thread {
                    Thread.sleep(forTimeInterval: 0.5)
                    try? two.execute(ending)
                }
                ender.start()
                #expect(Self.settles(running, store) == (ending == "COMMIT" ? .committed : .notCommitted))
                #expect(ContinuousClock.now - started >= .milliseconds(450), "settled before the transaction ended")
            }
        }
        try await first.close()
        try await second.close()
    }

    @Test("the outcome of a lookup, for any slot contents")
    func outcomes() {
        let ticket = PostgresWriteTicket(transactionID: 500, writeID: "0f8e6c1a-6d1e-4c38-9a51-3b6f7a1d2e40", sequence: 12)
        let ours = ticket.writeID!.uppercased()
        let other = "7c0b1d9e-2a44-4f0e-8a6b-5e1f2c3d4b50"
        for isOver in [false, true] {
            for isPast in [false, true] {
                #expect(PostgresWriteLedger.outcome(of: ticket, slotSequence: 12, slotID: ours, isOver: isOver, isPastServer: isPast) == .committed("its write id is recorded"))
                for (sequence, id) in [(Int64?.none, String?.none), (11, other), (12, other), (13, other)] {
                    let outcome = PostgresWriteLedger.outcome(of: ticket, slotSequence: sequence, slotID: id, isOver: isOver, isPastServer: isPast)
                    switch (isPast, isOver, (sequence ?? 0) > 12) {
                    case (true, _, _): #expect(outcome == .notCommitted("the server restarted without it"))
                    case (false, false, _): #expect(outcome == .inProgress)
                    case (false, true, true): #expect(Self.kind(outcome) == .unknown)
                    case (false, true, false): #expect(Self.kind(outcome) == .notCommitted)
                    }
                }
            }
        }
    }

    private enum Kind { case committed, notCommitted, unknown }

    private static func kind(_ outcome: CommitOutcome) -> Kind? {
        switch outcome {
        case .committed: .committed
        case .notCommitted: .notCommitted
        case .unknown: .unknown
        case .inProgress: nil
        }
    }

    /// A write transaction on `session` that records its id, ended by `ending`.
    private static func write(on session: PostgresSession, ending: String) throws -> PostgresWriteTicket {
        try session.execute("BEGIN")
        let ticket = try #require(try PostgresStore.takeTicket(in: session, ledger: true))
        try session.execute(ending)
        return ticket
    }

    /// What ``PostgresStore/settleCommit(of:after:)`` reports of `ticket`.
    private static func settles(_ ticket: PostgresWriteTicket, _ store: PostgresStore) -> Kind? {
        do {
            try store.settleCommit(of: ticket, after: failure)
            return .committed
        } catch let error as TableStorePostgres.PostgresError {
            if error.isOutcomeUnknown { return .unknown }
            return error.description == failure.description ? .notCommitted : nil
        } catch {
            return nil
        }
    }
}
