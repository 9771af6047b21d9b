import HostileTextSupport
import PropertyBased
import Testing
@testable import TablePagesPostgres

@Suite("ListenerHeartbeat")
struct ListenerHeartbeatTests {
    private static let start = ContinuousClock.now

    @Test("An unheard heartbeat is a stall past the limit, not before; hearing it (or a later one) clears it")
    func stall() {
        var heartbeat = ListenerHeartbeat(limit: .seconds(5))
        #expect(!heartbeat.isStalled(at: Self.start + .seconds(60)))
        heartbeat.sent(1, at: Self.start)
        heartbeat.sent(2, at: Self.start + .seconds(1))
        #expect(!heartbeat.isStalled(at: Self.start + .seconds(5)))
        #expect(heartbeat.isStalled(at: Self.start + .milliseconds(5_001)))
        heartbeat.heard(2)
        #expect(!heartbeat.isStalled(at: Self.start + .seconds(60)))
        heartbeat.sent(3, at: Self.start + .seconds(10))
        #expect(heartbeat.isStalled(at: Self.start + .seconds(16)))
        // A new connection owes nothing sent before it listened.
        heartbeat.restart()
        #expect(!heartbeat.isStalled(at: Self.start + .seconds(60)))
        // The next connection's sender numbers from 1 again: its heartbeats count.
        heartbeat.sent(1, at: Self.start + .seconds(60))
        #expect(heartbeat.isStalled(at: Self.start + .seconds(66)))
    }

    @Test("A heartbeat heard before its send is recorded (the notification outran the answer) is no stall")
    func heardFirst() {
        var heartbeat = ListenerHeartbeat(limit: .seconds(5))
        heartbeat.heard(1)
        heartbeat.sent(1, at: Self.start)
        #expect(!heartbeat.isStalled(at: Self.start + .seconds(60)))
    }

    // Each step: send the next heartbeat after `gap` ms; it is heard `delay` ms after it was sent
    // (or never, for a negative delay). Checked every 100 ms.
    static let steps = zip(Gen.int(in: 0...3_000), Gen.int(in: -1...8_000)).array(of: 1...30)

    @Test("Never a stall while every heartbeat is heard within the limit; always one after a heartbeat goes unheard past it")
    func property() async {
        await propertyCheckFailingOnThrow(input: Self.steps) { steps in
            let limit = Duration.seconds(5)
            var heartbeat = ListenerHeartbeat(limit: limit)
            // (number, sent at, heard at or nil), all in milliseconds.
            var timeline: [(number: Int, sent: Int, heard: Int?)] = []
            var clock = 0
            for (number, (gap, delay)) in steps.enumerated() {
                clock += gap
                timeline.append((number + 1, clock, delay < 0 ? nil : clock + delay))
            }
            let end = clock + 20_000
            var firstStall: Int?
            for now in stride(from: 0, through: end, by: 100) {
                for entry in timeline where entry.sent == now || (entry.sent > now - 100 && entry.sent < now) {
                    heartbeat.sent(entry.number, at: Self.start + .milliseconds(entry.sent))
                }
                for entry in timeline {
                    if let heard = entry.heard, heard <= now, heard > now - 100 { heartbeat.heard(entry.number) }
                }
                if firstStall == nil, heartbeat.isStalled(at: Self.start + .milliseconds(now)) { firstStall = now }
            }
            // In order: a heartbeat counts as heard once it or any later one was heard.
            func heardBy(_ entry: (number: Int, sent: Int, heard: Int?)) -> Int? {
                timeline.filter { $0.number >= entry.number }.compactMap(\.heard).min()
            }
            // The checks run every 100 ms, so a heartbeat heard just past the limit may be heard
            // before a check sees it overdue: between the two bounds either answer is right.
            let lateness = timeline.map { entry in heardBy(entry).map { $0 - entry.sent } ?? .max }
            if lateness.contains(where: { $0 > 5_200 }) {
                #expect(firstStall != nil)
            } else if lateness.allSatisfy({ $0 <= 5_000 }) {
                #expect(firstStall == nil)
            }
        }
    }
}
