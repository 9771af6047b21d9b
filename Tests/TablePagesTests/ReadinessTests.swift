import GRDB
import HTTPTestSupport
import MicroHTTP
@testable import TablePagesTestSupport
import TableStore
import Testing
@testable import TablePages
import TablePagesDatabase

@Suite("Readiness: /readyz against /healthz")
struct ReadinessTests {
    static func withStore<T>(_ body: (Store) async throws -> T) async throws -> T {
        let database = try TestDatabase { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        return try await body(store)
    }

    @Test func readyzIs200WhenTheStoreAnswers() async throws {
        try await Self.withStore { store in
            try await withSite(readinessProbes: [store]) { server, _ in
                let answer = try await TestConnection(port: server.port).request("GET", "/readyz")
                #expect(answer.status == 200)
                #expect(answer.text == #"{"status":"ready"}"#)
                #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true)
            }
        }
    }

    @Test func readyzIs503WithAFailingProbesMessageWhileHealthzStays200Then200OnceItAnswers() async throws {
        let answering = TestReadinessProbe()
        let failing = TestReadinessProbe()
        try await withSite(readinessProbes: [answering, failing]) { server, _ in
            let client = try await TestConnection(port: server.port)
            #expect(try await client.request("GET", "/readyz").status == 200)
            failing.fail("The queue \"jobs\" is gone.")
            let answer = try await client.request("GET", "/readyz")
            #expect(answer.status == 503)
            #expect(answer.text == #"{"status":"unavailable","message":"The queue \"jobs\" is gone."}"#)
            #expect(try await client.request("GET", "/healthz").status == 200)
            failing.fail(nil)
            #expect(try await client.request("GET", "/readyz").status == 200)
        }
    }

    @Test func aStoreThatCannotBeReadMakesReadyz503NamingItsFile() async throws {
        try await Self.withStore { store in
            try await withSite(readinessProbes: [store]) { server, _ in
                let client = try await TestConnection(port: server.port)
                #expect(try await client.request("GET", "/readyz").status == 200)
                try store.reader.close()
                let answer = try await client.request("GET", "/readyz")
                #expect(answer.status == 503)
                #expect(answer.text.contains("The database \(store.path) could not be read: "), "\(answer.text)")
            }
        }
    }

    @Test func readyzIs503OnceShutdownBeginsWhileHealthzStays200() async throws {
        try await withSite { server, site in
            let client = try await TestConnection(port: server.port)
            #expect(try await client.request("GET", "/readyz").status == 200)
            site.beginShutdown()
            let answer = try await client.request("GET", "/readyz")
            #expect(answer.status == 503)
            #expect(answer.text.contains(#""status":"shutting down""#))
            #expect(try await client.request("GET", "/healthz").status == 200)
        }
    }

    @Test func readyzIs503DuringTheServersGracefulShutdown() async throws {
        try await withSite(pages: BlockingPages.registry(BlockingPages.slow())) { server, _ in
            let client = try await TestConnection(port: server.port)
            #expect(try await client.request("GET", "/readyz").status == 200)
            // A slow page keeps the server in its grace period; a kept-alive client asks meanwhile.
            async let slow = TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=1500")
            try await Task.sleep(for: .milliseconds(300))
            async let stopped: Void = server.shutdown()
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await client.request("GET", "/readyz").status == 503)
            #expect(try await slow.status == 200)
            await stopped
        }
    }

    @Test func readyzIs503WhenTheStoreDoesNotAnswerInTimeThen200Again() async throws {
        var settings = LiveSettings()
        settings.databaseConcurrency = 1
        settings.readinessTimeout = .milliseconds(300)
        // Longer than the slow page: what /readyz reports is the store, not a stall.
        settings.stallTimeout = .seconds(30)
        let builds = BuildCounter()
        try await Self.withStore { store in
            try await withSite(pages: BlockingPages.registry(BlockingPages.slow(builds: builds)), settings: settings, readinessProbes: [store]) { server, site in
                let client = try await TestConnection(port: server.port)
                #expect(try await client.request("GET", "/readyz").status == 200)
                let lane = try #require(site.hosts.lanes.lanes.first)
                // 4 s: time for the checks below while the page holds the lane on a loaded machine.
                async let slow = TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=4000&n=1")
                // The page's factory running is what holds the lane. (`lane.pending` was no sign of
                // it: the probe that answered the /readyz above is counted out only after it
                // answered, so the lane could look busy before the page reached it.)
                #expect(await eventually { builds.running == 1 })
                let clock = ContinuousClock()
                let start = clock.now
                let answer = try await client.request("GET", "/readyz")
                #expect(clock.now - start < .seconds(1.5), "it waits the readiness timeout, not for the lane")
                #expect(answer.status == 503)
                #expect(answer.text.contains("The database did not answer within 300 ms."), "\(answer.text)")
                // Asked again and again, it queues no further probe behind the slow page: the lane
                // holds the page, one store probe and one stall probe.
                for _ in 0..<5 { _ = try await client.request("GET", "/readyz") }
                #expect(lane.pending <= 3)
                #expect(try await client.request("GET", "/healthz").status == 200)
                #expect(try await slow.status == 200)
                #expect(await eventually(timeout: .seconds(10)) { (try? await client.request("GET", "/readyz").status) == 200 })
            }
        }
    }
}
