import Foundation
import Synchronization
@testable import TablePages
@testable import TablePagesDatabase
import TableKit
import TableStore
import Testing

@Suite struct LiveQueryTests {
    @Test func aDistinctFirstColumnIsTheRowsKeyElseItsContent() {
        let groups: [[SQLValue]] = [[.text("paid"), .integer(3)], [.text("open"), .integer(1)]]
        let ids = QueryRowIdentity.ids(of: groups)
        // A group's count changing keeps its id: the change is one replaced row.
        #expect(QueryRowIdentity.ids(of: [[.text("paid"), .integer(4)], [.text("open"), .integer(1)]]) == ids)
        #expect(ids[0].rawValue.hasPrefix("k") && ids[0] != ids[1])
        // Repeated or missing first values: the content, the n-th of equal rows apart.
        let repeated: [[SQLValue]] = [[.integer(1), .text("a")], [.integer(1), .text("a")], [.integer(1), .text("b")], [.null, .text("a")]]
        let content = QueryRowIdentity.ids(of: repeated)
        #expect(Set(content).count == 4 && content.allSatisfy { $0.rawValue.hasPrefix("c") })
        #expect(content[1].rawValue == content[0].rawValue + "-1")
        // The same content has the same id on every run.
        #expect(QueryRowIdentity.ids(of: repeated) == content)
    }

    @Test func aThrottledFeedPassesOnAtMostOncePerIntervalAndNeverMissesTheLast() async throws {
        let throttled = ThrottledFeed(interval: .milliseconds(200))
        let times = Mutex<[ContinuousClock.Instant]>([])
        throttled.feed.observe { times.withLock { $0.append(.now) } }
        let start = ContinuousClock.now
        var lastNotified = start
        for _ in 0..<50 {
            lastNotified = .now
            throttled.notify()
            try await Task.sleep(for: .milliseconds(10))
        }
        let lastChange = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(400))
        let seen = times.withLock { $0 }
        // The first at once, then at most one per 200 ms (however slowly the loop ran on a busy
        // machine), and one after the last change.
        let span = Double((lastChange - start) / .milliseconds(200))
        #expect(seen.count >= 2 && Double(seen.count) <= span + 2, "\(seen.count) in \(lastChange - start)")
        for (earlier, later) in zip(seen, seen.dropFirst()) { #expect(later - earlier >= .milliseconds(190)) }
        #expect(seen.first! - start < .milliseconds(100))
        #expect(seen.last! >= lastNotified, "the last change is passed on")
    }
}
