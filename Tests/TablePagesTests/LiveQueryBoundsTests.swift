import Foundation
import HTTPTestSupport
import HostileTextSupport
@testable import MicroHTTP
import TableKit
@testable import TablePagesTestSupport
import Testing
@testable import TablePages

/// The bounds on pages that run visitors' queries (``PageDefinition/runsOnQueryLane``): their own
/// lane, their watchers per client (per IPv6 /64), and the time an unwatched one is kept; and a
/// shared stream that subscribes each page as soon as its host is made.
@Suite("Live query bounds")
struct LiveQueryBoundsTests {
    /// The key a request from `address` is counted under.
    private func key(_ address: String) -> String? {
        Request(method: .get, path: "/", pathSegments: [], remoteAddress: address).clientKey
    }

    /// `open` table pages (``LiveBoundsFixtures/registry(pages:)``) and `slow`, whose factory
    /// blocks for `?ms=`, on the query lane.
    static func registry() -> PageRegistry {
        var registry = LiveBoundsFixtures.registry()
        var query = BlockingPages.slow()
        query.runsOnQueryLane = true
        registry.register(query)
        return registry
    }

    @Test func queriesWaitingOnTheirLaneLeaveTablePagesAndReadyzFast() async throws {
        var settings = LiveSettings()
        settings.databaseConcurrency = 1
        settings.queryLaneQueueLimit = 1
        try await withSite(pages: Self.registry(), settings: settings) { server, site in
            let lane = try #require(site.hosts.queryLanes.lanes.first)
            async let running = TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=1500&n=1", timeout: .seconds(30))
            #expect(await eventually { lane.pending == 1 })
            async let waiting = TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=1500&n=2", timeout: .seconds(30))
            #expect(await eventually { lane.pending == 2 })
            // Past the query lane's queue: refused at once, as a busy table lane refuses.
            let refused = try await TestConnection(port: server.port).request("GET", "/pages/slow.json?ms=0&n=3")
            #expect(refused.status == 503 && refused.header("Retry-After") == "1")
            // The only table lane is free: a fresh table page and /readyz do not wait for the queries.
            let start = ContinuousClock.now
            let page = try await TestConnection(port: server.port).request("GET", "/pages/open.json?n=42")
            #expect(page.status == 200)
            #expect(ContinuousClock.now - start < .milliseconds(700), "a table page waited behind the live queries")
            #expect(try await TestConnection(port: server.port).request("GET", "/readyz").status == 200)
            #expect(try await running.status == 200)
            #expect(try await waiting.status == 200)
            #expect(try await running.text.contains(#""title":"lane 0""#))
        }
    }

    @Test func aClientWatchesAtMostItsBoundOfVariantsAndGetsOneBackWhenAStreamEnds() throws {
        let limit = ClientWatchLimit(perClient: 2)
        let (first, second, third) = (EventStream(), EventStream(), EventStream())
        try limit.admit(LiveBoundsFixtures.variant("a"), client: key("2001:db8:1:2::1"), until: first)
        // Another stream on a variant the client watches costs no re-run: admitted.
        try limit.admit(LiveBoundsFixtures.variant("a"), client: key("2001:db8:1:2::7"), until: EventStream())
        // Another address of the same /64 is the same client.
        try limit.admit(LiveBoundsFixtures.variant("b"), client: key("2001:db8:1:2:ffff::9"), until: second)
        #expect(throws: HTTPError.self) { try limit.admit(LiveBoundsFixtures.variant("c"), client: key("2001:db8:1:2::3"), until: third) }
        do throws(HTTPError) {
            try limit.admit(LiveBoundsFixtures.variant("c"), client: key("[2001:db8:1:2::3%eth0]"), until: third)
            Issue.record("a bracketed address with a zone passed its /64's bound")
        } catch {
            #expect(error.status == 429 && error.headers["Retry-After"] == "5")
        }
        // Another /64, and an IPv4 client, have bounds of their own.
        try limit.admit(LiveBoundsFixtures.variant("c"), client: key("2001:db8:1:3::1"), until: EventStream())
        try limit.admit(LiveBoundsFixtures.variant("c"), client: key("192.0.2.1"), until: EventStream())
        #expect(limit.watchedCount(of: "2001:db8:1:2::/64") == 2)
        second.detach()
        #expect(limit.watchedCount(of: "2001:db8:1:2::/64") == 1)
        try limit.admit(LiveBoundsFixtures.variant("c"), client: key("2001:db8:1:2::3"), until: third)
        #expect(limit.watchedCount(of: "2001:db8:1:2::/64") == 2)
    }

    @Test func anUnwatchedQueryIsDroppedAfterItsLifetimeAndTablePagesAreNot() async throws {
        var settings = LiveSettings()
        settings.unwatchedQueryLifetime = .seconds(60)
        let hosts = LiveBoundsFixtures.hosts(Self.registry(), settings: settings)
        let query = try await LiveBoundsFixtures.host(hosts, ["n": "1"], page: "slow")
        let watched = try await LiveBoundsFixtures.host(hosts, ["n": "2"], page: "slow")
        _ = try await LiveBoundsFixtures.host(hosts, ["n": "1"])
        watched.subscribe(EventStream(), format: .json, lastSeenID: nil)
        let now = ContinuousClock.now
        #expect(hosts.dropUnwatchedQueries(now: now + .seconds(59)).isEmpty)
        #expect(hosts.dropUnwatchedQueries(now: now + .seconds(61)) == [query.variant])
        #expect(hosts.existingHost(for: query.variant) == nil)
        #expect(hosts.existingHost(for: watched.variant) != nil)
        #expect(hosts.all.count == 2)
    }

    @Test func aSharedStreamFollowsEveryVariantItNamesPastThePerPageBound() async throws {
        var settings = LiveSettings()
        settings.maxVariantsPerPage = 4
        try await withSite(pages: Self.registry(), settings: settings) { server, site in
            let pages = (0..<10).map { "page=/pages/open%3Fn%3D\($0)" }.joined(separator: "&")
            let stream = try await TestConnection(port: server.port)
            #expect(try await stream.openStream("/-/events?\(pages)&format=json").status == 200)
            // Each page's host was subscribed as soon as it was made: none was dropped to make
            // room for a later one, which left its page with no patches and no word why.
            let hosts = site.hosts.all
            #expect(hosts.count == 10)
            #expect(hosts.allSatisfy { $0.channel.subscriberCount == 1 })
        }
    }

    @Test func aClientPastItsWatchBoundIsRefusedOnEitherStream() async throws {
        var settings = LiveSettings()
        settings.maxWatchedQueriesPerClient = 1
        try await withSite(pages: Self.registry(), settings: settings) { server, _ in
            let first = try await TestConnection(port: server.port)
            #expect(try await first.openStream("/pages/slow/events?n=1").status == 200)
            let own = try await TestConnection(port: server.port).request("GET", "/pages/slow/events?n=2", headers: [("Accept", "application/json")])
            #expect(own.status == 429, "\(own.text)")
            let shared = try await TestConnection(port: server.port)
            #expect(try await shared.openStream("/-/events?page=/pages/slow%3Fn%3D1&page=/pages/slow%3Fn%3D3&format=json").status == 200)
            let refused = try await shared.readStream(until: { $0.contains("event: refused") })
            #expect(refused.contains("data: 1\n") && refused.contains("429"), "\(refused)")
        }
    }
}
