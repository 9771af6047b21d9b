import HTTPTestSupport
import Synchronization
import TableKit
@testable import TablePages
import Testing

/// Titles with a version clock, as a database whose write transactions advance a counter.
final class ClockedTitles: Sendable {
    let titles: SharedTitles
    private let version: Atomic<Int>
    private let movesOnNextRead = Atomic<Bool>(false)

    init(_ titles: [String], version: Int) {
        self.titles = SharedTitles(titles)
        self.version = Atomic(version)
    }

    /// One write transaction.
    func write(_ titles: [String]) {
        self.titles.set(titles)
        version.add(1, ordering: .relaxed)
    }

    /// The next clock reading returns the current version and then advances it, as a write to
    /// other data committed while a page was reading would.
    func moveOnNextRead() { movesOnNextRead.store(true, ordering: .relaxed) }

    var clock: ChangeFeed.Clock {
        { [self] in
            let current = version.load(ordering: .relaxed)
            if movesOnNextRead.exchange(false, ordering: .relaxed) { version.add(1, ordering: .relaxed) }
            return current
        }
    }

    /// An instance's pages: one over these titles, with its own feed.
    func pages(feed: ChangeFeed) -> PageRegistry {
        var registry = PageRegistry()
        registry.register(PageDefinition(name: "clocked", title: "Clocked", changes: feed) { [titles] _ in ReloadableTitles(titles) })
        return registry
    }
}

@Suite("Event ids from the data's clock")
struct PageVersionTests {
    @Test func twoInstancesNameTheSameStatesAlikeAndReplayEachOthersIds() async throws {
        let data = ClockedTitles(["a", "b"], version: 41)
        let (feedA, feedB) = (ChangeFeed(clock: data.clock), ChangeFeed(clock: data.clock))
        try await withSite(pages: data.pages(feed: feedA)) { serverA, _ in
            try await withSite(pages: data.pages(feed: feedB)) { serverB, _ in
                let (a, b) = (try await TestConnection(port: serverA.port), try await TestConnection(port: serverB.port))
                #expect(try await pageVersion(a, "/pages/clocked.json") == 41)
                #expect(try await pageVersion(b, "/pages/clocked.json") == 41)
                let (streamA, streamB) = (try await TestConnection(port: serverA.port), try await TestConnection(port: serverB.port))
                for stream in [streamA, streamB] {
                    _ = try await stream.openStream("/pages/clocked/events?format=json")
                    _ = try await stream.readStream(until: { $0.contains("retry:") })
                }
                for (count, titles) in [["a", "c"], ["a", "d"]].enumerated() {
                    data.write(titles)
                    feedA.notify()
                    feedB.notify()
                    let onA = events(in: try await streamA.readStream(until: { events(in: $0).count > count }))
                    let onB = events(in: try await streamB.readStream(until: { events(in: $0).count > count }))
                    // The same state, the same id and the same patch on both.
                    #expect(onA.map(eventID) == onB.map(eventID))
                    #expect(onA.last == onB.last)
                    #expect(onA.last.flatMap(eventID) == 42 + count)
                }

                // A client of A at 42 moves to B: it gets exactly the patch to 43.
                let mover = try await TestConnection(port: serverB.port)
                _ = try await mover.openStream("/pages/clocked/events?format=json", headers: [("Last-Event-ID", "42")])
                let replayed = events(in: try await mover.readStream(until: { events(in: $0).count >= 1 }))
                #expect(replayed.map(eventID) == [43])
                #expect(operations(in: replayed[0]) == ["replace t1"])
                #expect(replayed[0].contains(#""title":"d""#))

                // A version B never showed (none did) is answered with reset, never a patch.
                let stranger = try await TestConnection(port: serverB.port)
                _ = try await stranger.openStream("/pages/clocked/events?format=json", headers: [("Last-Event-ID", "40")])
                let answer = try await stranger.readStream(until: { $0.contains("event: reset") })
                #expect(!answer.contains("event: patch"))
            }
        }
    }

    @Test func aReadWhileTheClockMovedGetsAnIdOfTheHostAndTheNextSteadyReadTheClocks() async throws {
        let data = ClockedTitles(["a"], version: 7)
        let feed = ChangeFeed(clock: data.clock)
        try await withSite(pages: data.pages(feed: feed)) { server, _ in
            let client = try await TestConnection(port: server.port)
            #expect(try await pageVersion(client, "/pages/clocked.json") == 7)
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/clocked/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })

            data.write(["b"])
            data.moveOnNextRead()
            feed.notify()
            let first = events(in: try await stream.readStream(until: { events(in: $0).count >= 1 }))
            let firstID = try #require(first.first.flatMap(eventID))
            #expect(PageVersions.localIDs.contains(firstID))

            data.write(["c"])
            feed.notify()
            let second = events(in: try await stream.readStream(until: { events(in: $0).count >= 2 }))
            #expect(eventID(second[1]) == 10)
            #expect(try await pageVersion(client, "/pages/clocked.json") == 10)
        }
    }

    @Test func aPageWithoutAClockStartsAtARandomIdOfItsOwn() async throws {
        let titles = SharedTitles(["a"])
        var pages = PageRegistry()
        pages.register(PageDefinition(name: "plain", title: "Plain", changes: ChangeFeed()) { _ in ReloadableTitles(titles) })
        let version = try await withSite(pages: pages) { server, _ in
            try await pageVersion(try await TestConnection(port: server.port), "/pages/plain.json")
        }
        #expect(PageVersions.localIDs.contains(version))
    }

    @Test func aChangeNotFromAReadLeavesTheClockForGood() {
        var versions = PageVersions(followsClock: true)
        versions.beginRead(at: 5)
        #expect(versions.next() == 5)
        versions.endRead()
        // A background update: this instance's own state from now on.
        let own = versions.next()
        #expect(PageVersions.localIDs.contains(own))
        versions.beginRead(at: 9)
        #expect(versions.next() == own + 1)
        versions.endRead()
        #expect(!versions.followsClock)
    }

    @Test func clockValuesAreNeverHandedOutTwice() {
        var versions = PageVersions(followsClock: true)
        versions.beginRead(at: 5)
        #expect(versions.next() == 5)
        // A second change within the same read, or a later read at the same version.
        #expect(PageVersions.localIDs.contains(versions.next()))
        versions.endRead()
        versions.beginRead(at: 5)
        #expect(PageVersions.localIDs.contains(versions.next()))
        versions.endRead()
        versions.beginRead(at: 6)
        #expect(versions.next() == 6)
        versions.endRead()
    }
}
