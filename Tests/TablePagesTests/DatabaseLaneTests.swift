import GRDB
import HTTPTestSupport
import MicroHTTP
import TableKit
@testable import TablePagesTestSupport
import TableStore
import Testing
@testable import TablePages

@Suite("Database lanes, time limits and stall detection")
struct DatabaseLaneTests {
    @Test func aChangeAnnouncedWhileTheFactoryReadsReachesThePage() async throws {
        let titles = SharedTitles(["as first read"])
        let pages = BlockingPages.registry(BlockingPages.race(titles: titles, feed: ChangeFeed()))
        try await withSite(pages: pages) { server, _ in
            let client = try await TestConnection(port: server.port)
            #expect(try await client.request("GET", "/pages/race.json").status == 200)
            // No later change comes: the one announced during the factory must refresh the page.
            #expect(await eventually {
                (try? await client.request("GET", "/pages/race.json").text.contains("changed while the page was being made")) == true
            })
            // The first read (the factory) and the re-read both ran on a database lane.
            #expect(titles.readLanes.count == 2)
            #expect(!titles.readLanes.contains(nil))
        }
    }

    @Test func factoriesRunOnADatabaseLaneNotOnSwiftsTaskPool() async throws {
        try await withSite(pages: BlockingPages.registry(BlockingPages.slow())) { server, _ in
            let page = try await TestConnection(port: server.port).request("GET", "/pages/slow.json")
            #expect(page.text.contains(#""title":"lane "#), "\(page.text)")
        }
    }

    @Test func asManyPagesAsThereAreLanesBlockAtOnceButNoMore() async throws {
        var settings = LiveSettings()
        settings.databaseConcurrency = 3
        try await withSite(pages: BlockingPages.registry(BlockingPages.slow()), settings: settings) { server, _ in
            // Three factories that each wait for all three to be running: they meet, one per lane.
            let titles = try await withThrowingTaskGroup(of: String.self) { group in
                for n in 1...3 {
                    group.addTask { try await TestConnection(port: server.port).request("GET", "/pages/slow.json?together=3&n=\(n)").text }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(titles.allSatisfy { $0.contains(#""title":"together""#) }, "\(titles)")
        }
        settings.databaseConcurrency = 2
        try await withSite(pages: BlockingPages.registry(BlockingPages.slow()), settings: settings) { server, _ in
            // With two lanes the third never runs beside the other two: the cap holds.
            async let first = TestConnection(port: server.port).request("GET", "/pages/slow.json?together=3&n=1", timeout: .seconds(30))
            async let second = TestConnection(port: server.port).request("GET", "/pages/slow.json?together=3&n=2", timeout: .seconds(30))
            try await Task.sleep(for: .milliseconds(300))
            let third = try await TestConnection(port: server.port).request("GET", "/pages/slow.json?together=3&n=3", timeout: .seconds(30))
            for page in [try await first, try await second, third] {
                #expect(page.text.contains(#""title":"alone""#), "\(page.text)")
            }
        }
    }

    @Test func requestsForAVariantBeingMadeWaitForThatOneBuild() async throws {
        let builds = BuildCounter()
        try await withSite(pages: BlockingPages.registry(BlockingPages.slow(builds: builds))) { server, _ in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=500&n=7").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 8))
            #expect(builds.count == 1)
        }
    }

    @Test func aLaneWithTooMuchWaitingAnswers503WithRetryAfter() async throws {
        var settings = LiveSettings()
        settings.databaseConcurrency = 1
        settings.databaseQueueLimit = 1
        try await withSite(pages: BlockingPages.registry(BlockingPages.slow()), settings: settings) { server, site in
            // One request runs on the lane, one waits: the queue is full.
            let lane = try #require(site.hosts.lanes.lanes.first)
            async let running = TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=1500&n=1")
            #expect(await eventually { lane.pending == 1 })
            async let waiting = TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=0&n=2")
            #expect(await eventually { lane.pending == 2 })
            let refused = try await TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=0&n=3")
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.text.contains("busy"))
            #expect(try await running.status == 200)
            #expect(try await waiting.status == 200)
            // Once the lane is free, the same request goes through.
            #expect(try await TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=0&n=3").status == 200)
        }
    }

    @Test func readyzReportsAStalledLaneThenRecoversWhileHealthzStays200() async throws {
        var settings = LiveSettings()
        settings.databaseConcurrency = 1
        settings.stallTimeout = .milliseconds(300)
        try await withSite(pages: BlockingPages.registry(BlockingPages.slow()), settings: settings) { server, _ in
            let health = try await TestConnection(port: server.port)
            #expect(try await health.request("GET", "/readyz").status == 200)
            async let slow = TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=3000&n=1")
            // A probe sent while the slow page holds the lane waits behind it for longer than the
            // stall timeout.
            var stalled: TestResponse?
            let deadline = ContinuousClock.now + .milliseconds(2500)
            while stalled == nil, ContinuousClock.now < deadline {
                let answer = try await health.request("GET", "/readyz")
                if answer.status == 503 { stalled = answer }
                // Liveness: a slow database is no reason to restart the process.
                #expect(try await health.request("GET", "/healthz").status == 200)
                try await Task.sleep(for: .milliseconds(100))
            }
            let report = try #require(stalled)
            #expect(report.text.contains(#""stalled":["database lane 1"#), "\(report.text)")
            #expect(report.text.contains("No progress for more than 300 ms."))
            #expect(try await slow.status == 200)
            #expect(await eventually { (try? await health.request("GET", "/readyz").status) == 200 })
        }
    }

    @Test func aDatabaseQueryPastTheTimeLimitIs503AndSaysHowToRaiseIt() async throws {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE big (id INTEGER PRIMARY KEY, category TEXT, value INTEGER)")
            try db.execute(sql: """
                WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 300000)
                INSERT INTO big SELECT x, 'cat' || (x % 100), (x * 7919) % 100003 FROM c
                """)
        }
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, store in
            let client = try await TestConnection(port: server.port)
            store.queryTimeLimit = .seconds(60)
            #expect(try await client.request("GET", "/pages/big.json?limit=5").status == 200)
            // A hundred unindexed groups, each sorted by an unindexed column: seconds of work.
            store.queryTimeLimit = .milliseconds(500)
            let clock = ContinuousClock()
            let start = clock.now
            let slow = try await client.request("GET", "/pages/big.json?group=category&sort=-value")
            let elapsed = clock.now - start
            #expect(slow.status == 503)
            #expect(slow.text.contains("longer than the server's limit of 500 ms"))
            #expect(slow.text.contains("--query-time-limit"))
            #expect(elapsed < .milliseconds(2000), "answered after \(elapsed)")
            // Paging an unindexed sort hits the limit in the section route too.
            store.queryTimeLimit = .seconds(60)
            let page = try await client.request("GET", "/pages/big.json?sort=value&limit=1")
            #expect(page.status == 200)
            store.queryTimeLimit = .milliseconds(1)
            let section = try await client.request("GET", "/pages/big/sections/all.json?sort=value&after=1&limit=1000")
            #expect(section.status == 503, "\(section.text)")
            // Read on a lane other than the host's (a detached page): the same limit, the same answer.
            #expect(section.text.contains("--query-time-limit"), "\(section.text)")
            store.queryTimeLimit = .seconds(60)
            #expect(try await client.request("GET", "/pages/big/sections/all.json?sort=value&after=1&limit=1000").status == 200)
        }
    }
}
