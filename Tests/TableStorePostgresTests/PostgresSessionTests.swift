import Foundation
import HostileTextSupport
import PropertyBased
import Synchronization
import Testing
import TableStore
@testable import TableStorePostgres

@Suite("PostgresSession and PostgresChange")
struct PostgresSessionTests {
    @Test("? placeholders become $1, $2, … left to right; quoted question marks stay")
    func placeholders() {
        #expect(SQLDialect.postgresql.numberingPlaceholders("UPDATE t SET a = ? WHERE id = ? AND b = '?' AND \"c?\" = ?")
            == "UPDATE t SET a = $1 WHERE id = $2 AND b = '?' AND \"c?\" = $3")
        #expect(SQLDialect.postgresql.numberingPlaceholders("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', $1")
    }

    @Test("A trigger's payload parses; anything else is no change description")
    func payload() {
        #expect(PostgresChange(payload: #"{"table":"todo","version":42}"#) == PostgresChange(table: "todo", version: 42))
        #expect(PostgresChange(payload: "hello") == nil)
    }

    @Test("BlockingWait returns the task's value and rethrows its error")
    func blockingWait() async throws {
        struct Failure: Error {}
        #expect(try await onThread { try BlockingWait.run(within: .seconds(10)) { 40 + 2 } } == 42)
        await #expect(throws: Failure.self) { try await onThread { try BlockingWait.run(within: .seconds(10)) { () async throws -> Int in throw Failure() } } }
    }

    @Test("BlockingWait gives up at its bound on work that never ends, and cancels it")
    func blockingWaitTimesOut() async throws {
        let cancelled = Mutex(false)
        let start = ContinuousClock.now
        await #expect(throws: WaitTimedOut.self) {
            try await onThread {
                try BlockingWait.run(within: .milliseconds(200)) { () async throws -> Int in
                    // Never answered, as a statement sent on a dead connection.
                    await withTaskCancellationHandler {
                        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                    } onCancel: {
                        cancelled.withLock { $0 = true }
                    }
                    return 0
                }
            }
        }
        let waited = ContinuousClock.now - start
        // Far above the bound: it only has to show the wait ended, and a loaded machine (every
        // suite at once on 2 cores) took 5.09 s to get here.
        #expect(waited >= .milliseconds(200) && waited < .seconds(30))
        #expect(cancelled.withLock { $0 })
    }

    @Test("WaitTimedOut.run returns in time, and gives up at its bound on work that ignores cancellation")
    func asyncWait() async throws {
        #expect(try await WaitTimedOut.run(within: .seconds(10)) { 6 * 7 } == 42)
        let start = ContinuousClock.now
        await #expect(throws: WaitTimedOut.self) {
            try await WaitTimedOut.run(within: .milliseconds(200)) { () async -> Int in
                // Ignores cancellation, as a statement sent on a closed connection is never answered.
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                return 0
            }
        }
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test("A value offered after the wait gave up is refused, so its giver keeps it")
    func lateValueIsRefused() throws {
        let box = BlockingWait<Int>()
        #expect(throws: WaitTimedOut.self) { try box.wait(within: .milliseconds(10)) }
        #expect(box.fulfill(.success(1)) == false)
        let other = BlockingWait<Int>()
        #expect(other.fulfill(.success(7)))
        #expect(try other.wait(within: .milliseconds(10)) == 7)
        // Any number of waits return the value.
        #expect(try other.wait(within: .milliseconds(10)) == 7)
    }
}

@Suite("ListenerLag")
struct ListenerLagTests {
    let start = ContinuousClock.now

    @Test("A version the clock reached and no notification brought is reported past the limit")
    func stalled() {
        var lag = ListenerLag(limit: .seconds(5))
        #expect(lag.stalledVersion(clock: 10, notified: nil, resumption: (1, nil), now: start) == nil)
        #expect(lag.stalledVersion(clock: 11, notified: nil, resumption: (1, nil), now: start + .seconds(1)) == nil)
        #expect(lag.stalledVersion(clock: 11, notified: nil, resumption: (1, nil), now: start + .seconds(5)) == nil)
        #expect(lag.stalledVersion(clock: 12, notified: nil, resumption: (1, nil), now: start + .seconds(6.5)) == 11)
    }

    @Test("Writes that keep the clock just ahead of notifications that keep coming are no stall")
    func steadyWrites() {
        var lag = ListenerLag(limit: .seconds(5))
        _ = lag.stalledVersion(clock: 100, notified: nil, resumption: (1, nil), now: start)
        for second in 1...60 {
            // The clock is always one version ahead of what was delivered a moment ago.
            let stalled = lag.stalledVersion(clock: Int64(100 + second), notified: Int64(100 + second - 1), resumption: (1, nil), now: start + .seconds(second))
            #expect(stalled == nil)
        }
    }

    @Test("A change between LISTEN and the first check is owed: the clock as LISTEN took effect is the floor")
    func floorFromListen() {
        var lag = ListenerLag(limit: .seconds(5))
        #expect(lag.stalledVersion(clock: 11, notified: nil, resumption: (1, 10), now: start) == nil)
        #expect(lag.stalledVersion(clock: 11, notified: nil, resumption: (1, 10), now: start + .seconds(6)) == 11)
    }

    @Test("Reconnecting owes nothing from before: the clock then is the floor")
    func resumeResets() {
        var lag = ListenerLag(limit: .seconds(5))
        _ = lag.stalledVersion(clock: 10, notified: nil, resumption: (1, nil), now: start)
        _ = lag.stalledVersion(clock: 12, notified: nil, resumption: (1, nil), now: start + .seconds(1))
        #expect(lag.stalledVersion(clock: 12, notified: nil, resumption: (2, nil), now: start + .seconds(7)) == nil)
        #expect(lag.stalledVersion(clock: 12, notified: nil, resumption: (2, nil), now: start + .seconds(20)) == nil)
    }

    @Test("Any sequence of writes and deliveries: a stall is reported only for a version undelivered past the limit")
    func neverEarly() async {
        // Per tick: how far the clock moves, whether a notification arrives, how far behind it is.
        let ticks = zip(Gen.int(in: 0...2), Gen.bool, Gen.int(in: 0...1)).array(of: 1...40)
        await propertyCheckFailingOnThrow(input: ticks) { ticks in
            let start = ContinuousClock.now
            var lag = ListenerLag(limit: .seconds(5))
            var (clock, delivered): (Int64, Int64) = (1000, 1000)
            // When each version was first owed, in ticks.
            var owedSince: [Int64: Int] = [:]
            _ = lag.stalledVersion(clock: clock, notified: delivered, resumption: (1, nil), now: start)
            for (tick, (step, arrives, behind)) in ticks.enumerated().map({ ($0.offset + 1, $0.element) }) {
                clock += Int64(step)
                if arrives { delivered = max(delivered, clock - Int64(behind)) }
                if clock > delivered {
                    for version in (delivered + 1)...clock where owedSince[version] == nil { owedSince[version] = tick }
                }
                if let version = lag.stalledVersion(clock: clock, notified: delivered, resumption: (1, nil), now: start + .seconds(tick)) {
                    #expect(version > delivered)
                    #expect(tick - owedSince[version, default: tick] > 5)
                }
            }
        }
    }
}
