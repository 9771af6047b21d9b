import Foundation
import HostileTextSupport
import PropertyBased
import MicroHTTP
import Synchronization
@testable import TablePages
@testable import TablePagesDatabase
import TableKit
@testable import TablePagesTestSupport
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

    @Test func aLongFirstValueIsNoRowsIdAndEveryIdIsShortAndUnique() async {
        // A 3 kB blob as the key made each row's id 6.6 kB, written several times per row.
        let blobs: [[SQLValue]] = (0..<4).map { [.blob(Data(repeating: UInt8($0), count: 3_323))] }
        let ids = QueryRowIdentity.ids(of: blobs)
        #expect(Set(ids).count == 4 && ids.allSatisfy { $0.rawValue.hasPrefix("c") && $0.rawValue.utf8.count < 40 })
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...3).array(of: 0...12), Gen.int(in: 0...400)) { picks, length in
            let values: [SQLValue] = [.null, .integer(7), .text(String(repeating: "x", count: length)), .blob(Data(count: length))]
            let rows = picks.map { [values[$0], .integer(Int64($0))] }
            let ids = QueryRowIdentity.ids(of: rows)
            #expect(Set(ids).count == rows.count)
            #expect(ids.allSatisfy { $0.rawValue.utf8.count <= QueryRowIdentity.longestKey + 1 })
        }
    }

    @Test func theSQLPageIsLiveOnePageOfBoundedVariantsEachASQLAndItsParameters() throws {
        let database = try SQLiteQueryRunnerTests.database()
        defer { database.remove() }
        let runner = try SQLiteQueryRunner(path: database.path, limits: QueryLimits())
        var registry = PageRegistry()
        LiveQueryPages.registerSQL(runner: runner, access: .anyone, maxQueries: 3, onChange: { _ in }, in: &registry)
        let page = try #require(registry.page(named: LiveQueryPages.sqlPageName))
        #expect(page.maxVariants == 3 && !page.isListed && page.access.isReadOnly)
        let sql = "SELECT id FROM orders WHERE status = :status"
        let variant = try page.variant(for: [:], items: [("sql", sql), ("status", "paid"), ("after", "9"), ("status", "open")]).get()
        // The SQL and the first value of each of its parameters; the page's own items are not its.
        #expect(variant.parameters == ["sql": sql, "status": "paid"])
        #expect(throws: PageDefinition.VariantError.self) { try page.variant(for: [:], items: [("sql", "  ")]).get() }
        #expect(LiveQueryPages.sqlPagePath(sql: "SELECT 1", parameters: [("a", "b c")]) == "/pages/-~2Fsql?sql=SELECT+1&a=b+c")
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

    @Test func aChangeReachesTheQueriesThatReadATableItTouchedOrWhenEitherIsUnknown() async throws {
        let router = TableChangeRouter(interval: .milliseconds(1))
        let (orders, view, constant, unknown) = (router.watch(), router.watch(), router.watch(), router.watch())
        orders.reads(["orders"])
        view.reads(["orders", "customers"])
        constant.reads([])
        let heard = Mutex<[String]>([])
        for (name, watch) in [("orders", orders), ("view", view), ("constant", constant), ("unknown", unknown)] {
            watch.feed.observe { heard.withLock { $0.append(name) } }
        }
        func heardAfter(_ change: ChangedTables, watches: Int = 4) async throws -> [String] {
            heard.withLock { $0 = [] }
            let skipped = router.notify(change)
            // Past each feed's throttle, so a later change is passed on at once.
            try await Task.sleep(for: .milliseconds(20))
            let names = heard.withLock { $0.sorted() }
            #expect(names.count + skipped == watches)
            return names
        }
        #expect(try await heardAfter(ChangedTables(["customers"])) == ["unknown", "view"])
        #expect(try await heardAfter(ChangedTables(["orders", "x"])) == ["orders", "unknown", "view"])
        #expect(try await heardAfter(ChangedTables(["products"])) == ["unknown"])
        #expect(try await heardAfter(.unknown) == ["constant", "orders", "unknown", "view"])
        // A released watch hears nothing more.
        _ = consume unknown
        #expect(try await heardAfter(.unknown, watches: 3) == ["constant", "orders", "view"])
    }

    /// A runner that counts the queries it runs.
    final class CountingRunner: QueryRunner {
        let wrapped: any QueryRunner
        let runs = Atomic<Int>(0)
        init(_ wrapped: any QueryRunner) { self.wrapped = wrapped }
        var limits: QueryLimits { wrapped.limits }
        func run(_ sql: String, parameters: [String: String]) throws -> QueryResult {
            runs.add(1, ordering: .relaxed)
            return try wrapped.run(sql, parameters: parameters)
        }
        func check(_ sql: String) throws { try wrapped.check(sql) }
    }

    @Test func changesWhileAWatchedQueryWaitsForTheQueryLaneAreOneReRun() async throws {
        let database = try SQLiteQueryRunnerTests.database()
        defer { database.remove() }
        let runner = CountingRunner(try SQLiteQueryRunner(path: database.path, limits: QueryLimits()))
        let listener = Mutex<(@Sendable (ChangedTables) -> Void)?>(nil)
        var registry = PageRegistry()
        LiveQueryPages.registerSQL(runner: runner, access: .anyone, onChange: { heard in listener.withLock { $0 = heard } }, in: &registry)
        let hosts = LiveBoundsFixtures.hosts(registry, settings: LiveSettings())
        let host = try await LiveBoundsFixtures.host(hosts, ["sql": "SELECT count(*) FROM orders"], page: LiveQueryPages.sqlPageName)
        let lane = try #require(hosts.queryLanes.lanes.first)
        // Its first run and its re-runs are on the query lane, not on the table pages' lanes.
        #expect(host.lane === lane && !hosts.lanes.lanes.contains { $0 === lane })
        host.subscribe(EventStream(), format: .json, lastSeenID: nil)
        #expect(runner.runs.load(ordering: .relaxed) == 1)
        // The lane is busy until the last of the changes that come for one and a half seconds,
        // past the throttle's 250 ms several times: one re-run once the lane is free. (A lane held
        // for a fixed time let a slow loop on a busy machine send changes after it was free,
        // each a rightful re-run.)
        let busy = DispatchSemaphore(value: 0)
        lane.submit { busy.wait() }
        let heard = try #require(listener.withLock { $0 })
        for _ in 0..<30 {
            heard(.unknown)
            try await Task.sleep(for: .milliseconds(50))
        }
        busy.signal()
        #expect(await eventually(timeout: .seconds(10)) { runner.runs.load(ordering: .relaxed) >= 2 })
        try await Task.sleep(for: .milliseconds(800))
        // The throttle may pass on the last change after the re-run began: one more.
        #expect(runner.runs.load(ordering: .relaxed) <= 3, "\(runner.runs.load(ordering: .relaxed) - 1) re-runs for changes that came while one waited")
    }
}
