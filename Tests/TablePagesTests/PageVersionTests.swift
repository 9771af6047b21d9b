import HTTPTestSupport
import MicroHTTP
import Synchronization
import TableKit
@testable import TablePages
import Testing

/// Titles with a version clock, as a database whose write transactions advance a counter.
final class ClockedTitles: Sendable {
    let titles: SharedTitles
    private let version: Atomic<Int>
    private let writesDuringNextRead = Atomic<Bool>(false)

    init(_ titles: [String], version: Int) {
        self.titles = SharedTitles(titles)
        self.version = Atomic(version)
    }

    /// One write transaction.
    func write(_ titles: [String]) {
        self.titles.set(titles)
        version.add(1, ordering: .relaxed)
    }

    /// The next re-read of a page, halfway through, sees a write to other data commit.
    func writeDuringNextRead() { writesDuringNextRead.store(true, ordering: .relaxed) }

    /// What a page's re-read gets: the titles, with the clock moving meanwhile when asked to.
    func read() -> [String] {
        let current = titles.current
        if writesDuringNextRead.exchange(false, ordering: .relaxed) { version.add(1, ordering: .relaxed) }
        return current
    }

    var clock: ChangeFeed.Clock {
        { [self] in version.load(ordering: .relaxed) }
    }

    /// An instance's pages over these titles, with its own feed: `clocked`, whose root is a
    /// ``VersionedDataSource``, and `cached`, whose root is only reloadable.
    func pages(feed: ChangeFeed) -> PageRegistry {
        var registry = PageRegistry()
        registry.register(PageDefinition(name: "clocked", title: "Clocked", changes: feed) { [self] _ in VersionedTitles(self) })
        registry.register(PageDefinition(name: "cached", title: "Cached", changes: feed) { [titles] _ in ReloadableTitles(titles) })
        return registry
    }

    /// The id a state read at clock `version` takes on a site with default settings.
    static func id(_ version: Int) -> Int {
        PageVersions.clockID(version, fingerprint: PageVersions.fingerprint(rowLimit: LiveSettings().pageRowLimit))
    }
}

/// A list of ``ClockedTitles``, all it shows read in `reloadFromSource`.
final class VersionedTitles: ListDataSource<TestItem>, VersionedDataSource {
    private let source: ClockedTitles

    init(_ source: ClockedTitles) {
        self.source = source
        super.init(models: Self.items(source.read()), sectionID: "titles", title: "Titles") { item, _ in
            TableCell(.basic, CellContent(title: item.title))
        }
    }

    func reloadFromSource() {
        models = Self.items(source.read())
    }

    private static func items(_ titles: [String]) -> [TestItem] {
        titles.enumerated().map { TestItem(id: "t\($0.offset)", title: $0.element) }
    }
}

@Suite("Event ids from the data's clock")
struct PageVersionTests {
    /// Opens a JSON event stream on `path`, with `lastEventID`, once the stream has started.
    static func stream(_ server: Server, _ path: String = "/pages/clocked/events?format=json", lastEventID: Int? = nil) async throws -> TestConnection {
        let connection = try await TestConnection(port: server.port)
        _ = try await connection.openStream(path, headers: lastEventID.map { [("Last-Event-ID", String($0))] } ?? [])
        return connection
    }

    @Test func twoInstancesNameTheSameStatesAlikeAndReplayEachOthersIds() async throws {
        let data = ClockedTitles(["a", "b"], version: 41)
        let (feedA, feedB) = (ChangeFeed(clock: data.clock), ChangeFeed(clock: data.clock))
        try await withSite(pages: data.pages(feed: feedA)) { serverA, _ in
            try await withSite(pages: data.pages(feed: feedB)) { serverB, _ in
                let (a, b) = (try await TestConnection(port: serverA.port), try await TestConnection(port: serverB.port))
                #expect(try await pageVersion(a, "/pages/clocked.json") == ClockedTitles.id(41))
                #expect(try await pageVersion(b, "/pages/clocked.json") == ClockedTitles.id(41))
                let (streamA, streamB) = (try await Self.stream(serverA), try await Self.stream(serverB))
                for stream in [streamA, streamB] { _ = try await stream.readStream(until: { $0.contains("retry:") }) }
                for (count, titles) in [["a", "c"], ["a", "d"]].enumerated() {
                    data.write(titles)
                    feedA.notify()
                    feedB.notify()
                    let onA = events(in: try await streamA.readStream(until: { events(in: $0).count > count }))
                    let onB = events(in: try await streamB.readStream(until: { events(in: $0).count > count }))
                    // The same state, the same id and (both read every version) the same patch.
                    #expect(onA.map(eventID) == onB.map(eventID))
                    #expect(onA.last == onB.last)
                    #expect(onA.last.flatMap(eventID) == ClockedTitles.id(42 + count))
                }

                // A client of A at 42 moves to B: it gets exactly B's patches after 42, here the one to 43.
                let mover = try await Self.stream(serverB, lastEventID: ClockedTitles.id(42))
                let replayed = events(in: try await mover.readStream(until: { events(in: $0).count >= 1 }))
                #expect(replayed.map(eventID) == [ClockedTitles.id(43)])
                #expect(operations(in: replayed[0]) == ["replace t1"])
                #expect(replayed[0].contains(#""title":"d""#))

                // A version only A showed (B read the next one first): B resets its client.
                data.write(["a", "e"])
                feedA.notify()
                _ = try await streamA.readStream(until: { events(in: $0).count >= 3 })
                data.write(["a", "f"])
                feedA.notify()
                feedB.notify()
                let onB = events(in: try await streamB.readStream(until: { events(in: $0).count >= 3 }))
                #expect(onB.last.flatMap(eventID) == ClockedTitles.id(45))
                let stranger = try await Self.stream(serverB, lastEventID: ClockedTitles.id(44))
                let answer = try await stranger.readStream(until: { $0.contains("event: reset") })
                #expect(!answer.contains("event: patch"))
                // ... and A, which showed it, replays.
                let known = try await Self.stream(serverA, lastEventID: ClockedTitles.id(44))
                let fromA = events(in: try await known.readStream(until: { events(in: $0).count >= 1 }))
                #expect(fromA.map(eventID) == [ClockedTitles.id(45)])
            }
        }
    }

    @Test func aReadThatAWriteCommittedDuringGetsAnIdOfTheHostAndTheNextSteadyReadTheClocks() async throws {
        let data = ClockedTitles(["a"], version: 7)
        let feed = ChangeFeed(clock: data.clock)
        try await withSite(pages: data.pages(feed: feed)) { server, _ in
            let client = try await TestConnection(port: server.port)
            #expect(try await pageVersion(client, "/pages/clocked.json") == ClockedTitles.id(7))
            let stream = try await Self.stream(server)
            _ = try await stream.readStream(until: { $0.contains("retry:") })

            data.write(["b"])
            data.writeDuringNextRead()
            feed.notify()
            let first = events(in: try await stream.readStream(until: { events(in: $0).count >= 1 }))
            let firstID = try #require(first.first.flatMap(eventID))
            #expect(PageVersions.localIDs.contains(firstID))

            data.write(["c"])
            feed.notify()
            let second = events(in: try await stream.readStream(until: { events(in: $0).count >= 2 }))
            #expect(eventID(second[1]) == ClockedTitles.id(10))
            #expect(try await pageVersion(client, "/pages/clocked.json") == ClockedTitles.id(10))
        }
    }

    @Test func aRootThatIsOnlyReloadableGetsIdsOfItsHostEvenWithAClock() async throws {
        let data = ClockedTitles(["a"], version: 7)
        let feed = ChangeFeed(clock: data.clock)
        try await withSite(pages: data.pages(feed: feed)) { server, _ in
            let client = try await TestConnection(port: server.port)
            let start = try await pageVersion(client, "/pages/cached.json")
            #expect(PageVersions.localIDs.contains(start))
            let stream = try await Self.stream(server, "/pages/cached/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            data.write(["b"])
            feed.notify()
            let patch = events(in: try await stream.readStream(until: { events(in: $0).count >= 1 }))
            #expect(patch.first.flatMap(eventID) == start + 1)
        }
    }

    @Test func aPageWithoutAClockStartsAtARandomIdOfItsOwn() async throws {
        let data = ClockedTitles(["a"], version: 7)
        let version = try await withSite(pages: data.pages(feed: ChangeFeed())) { server, _ in
            try await pageVersion(try await TestConnection(port: server.port), "/pages/clocked.json")
        }
        #expect(PageVersions.localIDs.contains(version))
    }

    @Test func aChangeNotFromAReadGetsALocalIdAndTheNextReadTheClocksAgain() {
        var versions = PageVersions(followsClock: true, fingerprint: 3)
        versions.beginRead(at: 5)
        #expect(versions.next() == PageVersions.clockID(5, fingerprint: 3))
        versions.endRead()
        // A background update, or an action that changed the table itself.
        let own = versions.next()
        #expect(PageVersions.localIDs.contains(own))
        versions.beginRead(at: 9)
        #expect(versions.next() == PageVersions.clockID(9, fingerprint: 3))
        versions.endRead()
    }

    @Test func clockValuesAreNeverHandedOutTwiceAndFitBelowLocalIDs() {
        var versions = PageVersions(followsClock: true, fingerprint: 0x7FF)
        versions.beginRead(at: 5)
        #expect(versions.next() == PageVersions.clockID(5, fingerprint: 0x7FF))
        // A second change within the same read, or a later read at the same version.
        #expect(PageVersions.localIDs.contains(versions.next()))
        versions.endRead()
        versions.beginRead(at: 5)
        #expect(PageVersions.localIDs.contains(versions.next()))
        versions.endRead()
        // A value too large for an id.
        versions.beginRead(at: 1 << 41)
        #expect(PageVersions.localIDs.contains(versions.next()))
        versions.endRead()
        #expect(PageVersions.clockID((1 << 41) - 1, fingerprint: 0x7FF) < PageVersions.localIDs.lowerBound)
    }

    @Test func theFingerprintTellsRowLimitsApartAndStaysTheSame() {
        let fingerprints = (1...64).map { PageVersions.fingerprint(rowLimit: $0) }
        #expect(fingerprints == (1...64).map { PageVersions.fingerprint(rowLimit: $0) })
        #expect(fingerprints.allSatisfy { (0..<2048).contains($0) })
        #expect(Set(fingerprints).count > 32)
    }
}
