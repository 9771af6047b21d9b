import GRDB
import HTTPTestSupport
import HostileTextSupport
import MicroHTTP
import PropertyBased
@testable import TablePages
import TablePagesDatabase
@testable import TablePagesTestSupport
import TableStore
import Testing

@Suite("Metrics at /metrics")
struct MetricsTests {
    static let selectRoute = "/pages/:page/rows/:row/select"

    @Test func threeSelectsCountThreeRequestsOnTheirRoutePatternThreePatchesAndTheirBytes() async throws {
        let metrics = ServiceMetrics()
        try await withSite(metrics: metrics) { server, _ in
            let client = try await TestConnection(port: server.port)
            let before = try await scrapeMetrics(client)
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/items/events")
            let preamble = try await stream.readStream(until: { $0.contains("retry:") })
            let watching = try await scrapeMetrics(client)
            #expect(watching.count("tablepages_http_open_event_streams") == before.count("tablepages_http_open_event_streams") + 1)
            #expect(watching.value("tablepages_live_subscribers") == 1)

            for row in ["item-1", "item-2", "item-3"] {
                #expect(try await client.request("POST", "/pages/items/rows/\(row)/select", headers: [("Accept", "application/json")]).status == 200)
            }
            let text = try await stream.readStream(until: { events(in: $0).count == 3 })
            let after = try await scrapeMetrics(client)

            let selects = ["method": "POST", "route": Self.selectRoute, "status": "200"]
            #expect(after.count("tablepages_http_requests_total", selects) - before.count("tablepages_http_requests_total", selects) == 3)
            let timed = ["method": "POST", "route": Self.selectRoute]
            #expect(after.count("tablepages_http_request_duration_seconds_count", timed) - before.count("tablepages_http_request_duration_seconds_count", timed) == 3)
            #expect(after.count("tablepages_http_request_duration_seconds_sum", timed) > 0)
            #expect(after.count("tablepages_live_patches_published_total") - before.count("tablepages_live_patches_published_total") == 3)
            // Exactly the bytes of the three events this one subscriber received.
            let patchBytes = text.utf8.count - preamble.utf8.count
            #expect(after.count("tablepages_live_patch_bytes_sent_total") - before.count("tablepages_live_patch_bytes_sent_total") == Double(patchBytes))
            #expect(after.count("tablepages_live_subscribers_dropped_total") == 0)
            // The scrapes themselves are counted on their own route.
            #expect(after.count("tablepages_http_requests_total", ["method": "GET", "route": "/metrics", "status": "200"]) == 2)
            // Labels name routes, never pages or rows.
            for sample in after.samples {
                #expect(!sample.labels.values.contains { $0.contains("item") }, "\(sample)")
                if let route = sample.labels["route"] { #expect(route.hasPrefix("/") || route == "unmatched") }
            }

            stream.close()
            // A write after the peer closed finds the socket gone (the first may still be accepted
            // by the kernel), and the stream is counted closed.
            #expect(await eventually {
                _ = try? await client.request("POST", "/pages/items/rows/item-4/select")
                return (try? await scrapeMetrics(client).count("tablepages_http_open_event_streams")) == before.count("tablepages_http_open_event_streams")
            })
        }
    }

    @Test func aSecondIdenticalPageRequestIsARenderCacheHit() async throws {
        let metrics = ServiceMetrics()
        try await withSite(metrics: metrics) { server, _ in
            let client = try await TestConnection(port: server.port)
            let before = try await scrapeMetrics(client)
            #expect(before.count("tablepages_live_variants") == 0)
            #expect(try await client.request("GET", "/pages/items.json").status == 200)
            let first = try await scrapeMetrics(client)
            #expect(first.count("tablepages_render_cache_misses_total") == 1)
            #expect(first.count("tablepages_render_cache_hits_total") == 0)
            #expect(first.value("tablepages_live_variants") == 1)
            #expect(first.count("tablepages_render_cache_entries") == 1)
            #expect(first.count("tablepages_render_cache_bytes") > 0)
            #expect(first.count("tablepages_live_variants_estimated_bytes") > 0)
            #expect(try await client.request("GET", "/pages/items.json").status == 200)
            let second = try await scrapeMetrics(client)
            #expect(second.count("tablepages_render_cache_misses_total") == 1)
            #expect(second.count("tablepages_render_cache_hits_total") == 1)
            // A page that does not exist is no miss: nothing would be rendered.
            #expect(try await client.request("GET", "/pages/nothing").status == 404)
            let third = try await scrapeMetrics(client)
            #expect(third.count("tablepages_render_cache_misses_total") == 1)
            #expect(third.count("tablepages_http_requests_total", ["method": "GET", "route": "/pages/:page", "status": "404"]) == 1)
            #expect(third.count("tablepages_http_requests_total", ["method": "GET", "route": "/pages/:page", "status": "200"]) == 2)
        }
    }

    @Test func reconnectionsAreCountedAsReplaysOrResets() async throws {
        let metrics = ServiceMetrics()
        try await withSite(metrics: metrics) { server, _ in
            let client = try await TestConnection(port: server.port)
            let start = try await pageVersion(client)
            #expect(try await client.request("POST", "/pages/items/rows/item-1/select").status == 200)
            let before = try await scrapeMetrics(client)

            let resumed = try await TestConnection(port: server.port)
            _ = try await resumed.openStream("/pages/items/events", headers: [("Last-Event-ID", String(start))])
            let preamble = "retry: 2000\n\n"
            let replay = try await resumed.readStream(until: { events(in: $0).count == 1 })
            let stale = try await TestConnection(port: server.port)
            _ = try await stale.openStream("/pages/items/events", headers: [("Last-Event-ID", "12")])
            _ = try await stale.readStream(until: { $0.contains("event: reset") })

            let after = try await scrapeMetrics(client)
            #expect(after.count("tablepages_live_resumes_total", ["outcome": "replay"]) - before.count("tablepages_live_resumes_total", ["outcome": "replay"]) == 1)
            #expect(after.count("tablepages_live_resumes_total", ["outcome": "reset"]) - before.count("tablepages_live_resumes_total", ["outcome": "reset"]) == 1)
            #expect(after.count("tablepages_live_patch_bytes_sent_total") - before.count("tablepages_live_patch_bytes_sent_total") == Double(replay.utf8.count - preamble.utf8.count))
            // Replays publish nothing new.
            #expect(after.count("tablepages_live_patches_published_total") == before.count("tablepages_live_patches_published_total"))
        }
    }

    @Test func aSubscriberTooFarBehindIsCountedAsDropped() throws {
        let metrics = ServiceMetrics()
        let channel = LiveChannel(latestID: 0, logCapacity: 8, subscriberBufferLimit: 100, metrics: metrics.live)
        // Never attached to a connection: what it is sent stays unread, like a client that stopped reading.
        let stream = EventStream()
        channel.subscribe(stream, format: .json, lastSeenID: nil)
        let patch = { (id: Int) in PatchLog.Entry(id: id, withHTML: Array(repeating: 0x61, count: 90), withoutHTML: Array(repeating: 0x62, count: 60)) }
        channel.publish(patch(1))
        channel.publish(patch(2))
        let exposition = try PrometheusExposition(parsing: metrics.registry.emitToString())
        #expect(exposition.value("tablepages_live_patches_published_total") == 2)
        #expect(exposition.value("tablepages_live_patch_bytes_sent_total") == 60)
        #expect(exposition.value("tablepages_live_subscribers_dropped_total") == 1)
        #expect(channel.subscriberCount == 0)
    }

    @Test func storeReadsAndWritesAreTimed() async throws {
        let metrics = ServiceMetrics()
        try await withExampleDatabase { file in
            try await withExampleSite(file: file, metrics: metrics) { server, _ in
                let client = try await TestConnection(port: server.port)
                let reads = ["operation": "read"], writes = ["operation": "write"]
                let name = "tablepages_store_operation_duration_seconds_count"
                let before = try await scrapeMetrics(client)
                #expect(try await client.request("GET", "/pages/todo.json").status == 200)
                let read = try await scrapeMetrics(client)
                #expect(read.count(name, reads) > before.count(name, reads))
                #expect(read.count(name, writes) == before.count(name, writes))
                #expect(try await client.request("POST", "/pages/todo/rows/todo-1/select", headers: [("Accept", "application/json")]).status == 200)
                let written = try await scrapeMetrics(client)
                #expect(written.count(name, writes) - before.count(name, writes) == 1)
                #expect(written.count("tablepages_store_operation_duration_seconds_sum", writes) > 0)
            }
        }
    }

    @Test func twoStoresTimedByOneServiceMetricsAddUpInOneSeries() throws {
        let metrics = ServiceMetrics()
        let first = try TestDatabase { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let second = try TestDatabase { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        defer { first.remove(); second.remove() }
        let stores = try [first, second].map { try Store.openExisting(path: $0.path, writable: false) }
        for store in stores {
            store.metrics = metrics.store
            _ = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
        }
        var body: [UInt8] = []
        metrics.registry.emit(into: &body)
        let exposition = try PrometheusExposition(parsing: String(decoding: body, as: UTF8.self))
        #expect(exposition.count("tablepages_store_operation_duration_seconds_count", ["operation": "read"]) == 2)
        #expect(exposition.samples(named: "tablepages_store_operation_duration_seconds_count").count == 2, "one read and one write series")
    }

    @Test func withoutMetricsThereIsNoMetricsRoute() async throws {
        try await withSite { server, _ in
            let client = try await TestConnection(port: server.port)
            #expect(try await client.request("GET", "/metrics").status == 404)
        }
    }

    /// Whatever path a client asks for, the route a response carries (and so the `route` label) is
    /// one of the site's patterns, or none.
    @Test func routeLabelsComeOnlyFromTheSitesPatterns() async {
        let site = Site(pages: TestPages.registry(), metrics: ServiceMetrics())
        let patterns: Set<String> = [
            "/public/*path", "/openapi.json", "/", "/healthz", "/metrics", "/pages/:page", "/pages/:page/sections/:section",
            "/pages/:page/rows/:row", "/pages/:page/events", "/pages/:page/rows/:row/select",
            "/pages/:page/rows/:row/actions/:action", "/pages/:page/rows/:row/move",
            "/pages/:page/sections/:section/rows", "/pages/:page/prefetch",
        ]
        let segment = Gen.element(of: ["pages", "items", "rows", "item-1", "sections", "events", "select", "x.json", "metrics", "", "%20", "public"])
            .map { $0 ?? "" }
        let methods = Gen.element(of: [HTTPMethod.get, .head, .options, .put, HTTPMethod(rawValue: "BREW")]).map { $0 ?? .get }
        await propertyCheckFailingOnThrow(input: segment.array(of: 0...6), methods) { segments, method in
            let path = "/" + segments.joined(separator: "/")
            let request = Request(method: method, path: path, pathSegments: segments.filter { !$0.isEmpty })
            let response = await site.router.respond(to: request)
            if let route = response.route {
                #expect(patterns.contains(route), "\(method) \(path) → \(route)")
            } else {
                #expect([404, 405, 204].contains(response.status), "\(method) \(path) → \(response.status) without a route")
            }
        }
    }

    /// Methods HTTP does not define share one label, and every status is its own; the text stays a
    /// valid exposition whatever was recorded.
    @Test func methodLabelsAreBoundedAndTheTextAlwaysParses() async throws {
        let token = Gen.letter.string(of: 1...8).map { HTTPMethod(rawValue: $0.uppercased()) }
        let answer = zip(token, Gen.int(in: 100...599), Gen.element(of: [nil, "/pages/:page", "/metrics"]).map { $0 ?? nil })
        await propertyCheckFailingOnThrow(input: answer.array(of: 1...30)) { answers in
            let metrics = ServiceMetrics()
            for (method, status, route) in answers {
                metrics.serverObserver.requestAnswered(method: method, route: route, status: status, duration: .microseconds(status))
            }
            let exposition: PrometheusExposition
            do {
                exposition = try PrometheusExposition(parsing: metrics.registry.emitToString())
            } catch {
                Issue.record("\(error)")
                return
            }
            let known = Set(RequestMetrics.knownMethods.map(\.rawValue)).union([RequestMetrics.otherMethod])
            let requests = exposition.samples(named: "tablepages_http_requests_total")
            #expect(requests.allSatisfy { known.contains($0.labels["method"] ?? "") })
            #expect(requests.reduce(0) { $0 + $1.value } == Double(answers.count))
            #expect(exposition.samples(named: "tablepages_http_request_duration_seconds_count").reduce(0) { $0 + $1.value } == Double(answers.count))
        }
    }

    @Test func theParserRejectsWhatIsNotAnExposition() {
        let valid = "# TYPE a_total counter\na_total{x=\"1\"} 2\n# TYPE h histogram\nh_bucket{le=\"1.0\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 3.5\nh_count 2\n"
        #expect(throws: Never.self) { try PrometheusExposition(parsing: valid) }
        let broken = [
            "a_total 1\n",                                               // no TYPE
            "# TYPE a_total counter\na_total{x=1} 2\n",                   // unquoted label value
            "# TYPE a_total counter\na_total 2\na_total 3\n",             // repeated sample
            "# TYPE a_total counter\na_total -1\n",                       // negative counter
            "# TYPE a_total counter\na_total two\n",                      // not a number
            "# TYPE 1a counter\n",                                        // bad name
            "# TYPE h histogram\nh_bucket{le=\"1.0\"} 3\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 2\n", // not cumulative
            "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 3\n",                        // +Inf ≠ count
        ]
        for text in broken {
            #expect(throws: PrometheusExposition.Malformed.self, "\(text)") { try PrometheusExposition(parsing: text) }
        }
    }
}
