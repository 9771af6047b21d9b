@testable import MicroHTTP
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The deadline sweeper's rules, on real loopback sockets with a clock the test controls.
@Suite("Receive deadlines")
struct ReceiveDeadlinesTests {
    /// Whether the peer of `descriptor` was shut down: reading gives end-of-stream at once.
    static func sawEndOfStream(_ descriptor: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1_000) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) == 0
    }

    @Test func aConnectionStillReceivingIsShutDownOnceItsDeadlinePasses() throws {
        let (server, client) = try loopbackSocketPair()
        defer { _ = close(server); _ = close(client) }
        let deadlines = ReceiveDeadlines(timeout: .seconds(1))
        let watch = deadlines.opened(descriptor: server)
        let opened = ContinuousClock.now
        #expect(deadlines.sweep(now: opened + .milliseconds(900)) == 0)
        #expect(deadlines.sweep(now: opened + .milliseconds(1_100)) == 1)
        #expect(Self.sawEndOfStream(client))
        // Shut down once, not on every later round.
        #expect(deadlines.sweep(now: opened + .seconds(3)) == 0)
        deadlines.closed(watch)
        #expect(deadlines.count == 0)
    }

    @Test func aLateBodyIsFirstMarkedForA408AndCutOnTheNextRound() throws {
        let (server, client) = try loopbackSocketPair()
        defer { _ = close(server); _ = close(client) }
        let deadlines = ReceiveDeadlines(timeout: .seconds(1))
        let watch = deadlines.opened(descriptor: server)
        let opened = ContinuousClock.now
        watch.headReceived(at: opened)
        #expect(deadlines.sweep(now: opened + .milliseconds(1_100)) == 0)
        #expect(watch.isOverdue)
        #expect(deadlines.sweep(now: opened + .milliseconds(1_400)) == 1)
        deadlines.closed(watch)
    }

    @Test func aRequestBeingAnsweredIsExempt() throws {
        let (server, client) = try loopbackSocketPair()
        defer { _ = close(server); _ = close(client) }
        let deadlines = ReceiveDeadlines(timeout: .seconds(1))
        let watch = deadlines.opened(descriptor: server)
        watch.headReceived(at: .now)
        watch.requestReceived()
        #expect(deadlines.sweep(now: .now + .seconds(3_600)) == 0)
        #expect(!watch.isOverdue)
        deadlines.closed(watch)
    }

    @Test func anIdleConnectionStartsItsClockWithTheNextRequestsFirstBytes() async throws {
        let (server, client) = try loopbackSocketPair()
        defer { _ = close(server); _ = close(client) }
        let deadlines = ReceiveDeadlines(timeout: .seconds(10))
        let watch = deadlines.opened(descriptor: server)
        watch.requestReceived()
        let completed = ContinuousClock.now
        watch.requestCompleted(at: completed)
        // Real time from here on: the sweeper compares its clock with the kernel's record of the
        // last bytes received.
        try await Task.sleep(for: .milliseconds(200))
        let quiet = ContinuousClock.now
        #expect(deadlines.sweep(now: quiet) == 0)
        #expect(watch.state.withLock { $0.phase } == .idle(since: completed))
        var byte = UInt8(ascii: "G")
        #expect(send(client, &byte, 1, 0) == 1)
        try await Task.sleep(for: .milliseconds(100))
        #expect(deadlines.sweep() == 0)
        // The clock starts at the last round that saw no bytes, not when the previous response ended.
        #expect(watch.state.withLock { $0.phase } == .receiving(since: quiet))
        #expect(deadlines.sweep(now: quiet + .milliseconds(9_900)) == 0)
        #expect(deadlines.sweep(now: quiet + .milliseconds(10_100)) == 1)
        deadlines.closed(watch)
    }

    @Test func aZeroTimeoutTurnsTheDeadlineOff() throws {
        let (server, client) = try loopbackSocketPair()
        defer { _ = close(server); _ = close(client) }
        let deadlines = ReceiveDeadlines(timeout: .zero)
        let watch = deadlines.opened(descriptor: server)
        #expect(deadlines.sweep(now: .now + .seconds(3_600)) == 0)
        deadlines.closed(watch)
    }
}
