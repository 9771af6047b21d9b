import HTTPTestSupport
import MicroHTTP
import Synchronization
import TableKit
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

/// Titles with a version clock, as a database whose write transactions advance a counter that
/// a read sees in the same snapshot as the titles. Each instance of a site gets a view of its own
/// (``instance()``), whose feed the test notifies, as each server has its own change listener.
final class ClockedTitles: ObservableStore {
    private final class Data: Sendable {
        let state: Mutex<(titles: [String], version: Int)>
        init(_ titles: [String], version: Int) { state = Mutex((titles, version)) }
    }

    private let data: Data
    private let unversionedReads = Atomic<Int>(0)
    let changes = ChangeFeed()

    init(_ titles: [String], version: Int) {
        data = Data(titles, version: version)
    }

    private init(data: Data) {
        self.data = data
    }

    /// Another view of the same data, with a feed of its own.
    func instance() -> ClockedTitles { ClockedTitles(data: data) }

    /// One write transaction; the test tells the views that see it.
    func write(_ titles: [String]) {
        data.state.withLock { $0 = (titles, $0.version + 1) }
    }

    /// The next read cannot say which version it saw (a clock that could not be read).
    func loseTheVersionOfTheNextRead() { unversionedReads.add(1, ordering: .relaxed) }

    func onChange(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        changes.observe(observer)
    }

    func versionedRead<Value: Sendable>(_ fetch: ([String]) throws -> Value) throws -> (value: Value, version: Int?) {
        let (titles, version) = data.state.withLock { $0 }
        let lost = unversionedReads.load(ordering: .relaxed) > 0 && unversionedReads.subtract(1, ordering: .relaxed).oldValue > 0
        return (try fetch(titles), lost ? nil : version)
    }

    /// An instance's pages over these titles: `clocked`, which shows only what it reads, and
    /// `cached`, which also shows a state of its own (its `local` feed).
    func pages() -> PageRegistry {
        var registry = PageRegistry()
        registry.register(PageDefinition(name: "clocked", title: "Clocked") { [self] _ in Self.titles(self) })
        let local = ChangeFeed()
        registry.register(PageDefinition(name: "cached", title: "Cached") { [self] _ in Self.titles(self, local: local) })
        return registry
    }

    /// A list of `store`'s titles.
    static func titles<Store: ObservableStore>(_ store: Store, local: ChangeFeed? = nil) -> ObservedSource<[TestItem]> where Store.Reader == [String] {
        ObservedSource(store, fetch: { titles in titles.enumerated().map { TestItem(id: "t\($0.offset)", title: $0.element) } }, local: local, section: { _ in (id: "titles", title: "Titles") }) { item in
            CellContent(title: item.title)
        }
    }

    /// The id a state read at clock `version` takes on a site with default settings.
    static func id(_ version: Int) -> Int {
        PageVersions.clockID(version, fingerprint: PageVersions.fingerprint(rowLimit: LiveSettings().pageRowLimit))
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
        let (viewA, viewB) = (data.instance(), data.instance())
        try await withSite(pages: viewA.pages()) { serverA, _ in
            try await withSite(pages: viewB.pages()) { serverB, _ in
                let (a, b) = (try await TestConnection(port: serverA.port), try await TestConnection(port: serverB.port))
                #expect(try await pageVersion(a, "/pages/clocked.json") == ClockedTitles.id(41))
                #expect(try await pageVersion(b, "/pages/clocked.json") == ClockedTitles.id(41))
                let (streamA, streamB) = (try await Self.stream(serverA), try await Self.stream(serverB))
                for stream in [streamA, streamB] { _ = try await stream.readStream(until: { $0.contains("retry:") }) }
                for (count, titles) in [["a", "c"], ["a", "d"]].enumerated() {
                    data.write(titles)
                    viewA.changes.notify()
                    viewB.changes.notify()
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
                viewA.changes.notify()
                _ = try await streamA.readStream(until: { events(in: $0).count >= 3 })
                data.write(["a", "f"])
                viewA.changes.notify()
                viewB.changes.notify()
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

    @Test func aReadThatCannotNameItsVersionGetsAnIdOfTheHostAndTheNextVersionedReadTheClocks() async throws {
        let data = ClockedTitles(["a"], version: 7)
        try await withSite(pages: data.pages()) { server, _ in
            let client = try await TestConnection(port: server.port)
            #expect(try await pageVersion(client, "/pages/clocked.json") == ClockedTitles.id(7))
            let stream = try await Self.stream(server)
            _ = try await stream.readStream(until: { $0.contains("retry:") })

            data.write(["b"])
            data.loseTheVersionOfTheNextRead()
            data.changes.notify()
            let first = events(in: try await stream.readStream(until: { events(in: $0).count >= 1 }))
            let firstID = try #require(first.first.flatMap(eventID))
            #expect(PageVersions.localIDs.contains(firstID))

            data.write(["c"])
            data.changes.notify()
            let second = events(in: try await stream.readStream(until: { events(in: $0).count >= 2 }))
            #expect(eventID(second[1]) == ClockedTitles.id(9))
            #expect(try await pageVersion(client, "/pages/clocked.json") == ClockedTitles.id(9))
        }
    }

    @Test func aSourceThatAlsoShowsLocalStateGetsIdsOfItsHostEvenWithAClock() async throws {
        let data = ClockedTitles(["a"], version: 7)
        try await withSite(pages: data.pages()) { server, _ in
            let client = try await TestConnection(port: server.port)
            let start = try await pageVersion(client, "/pages/cached.json")
            #expect(PageVersions.localIDs.contains(start))
            let stream = try await Self.stream(server, "/pages/cached/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            data.write(["b"])
            data.changes.notify()
            let patch = events(in: try await stream.readStream(until: { events(in: $0).count >= 1 }))
            #expect(patch.first.flatMap(eventID) == start + 1)
        }
    }

    @Test func aPageOverAStoreWithoutAClockStartsAtARandomIdOfItsOwn() async throws {
        let store = MemoryStore(["a"])
        var pages = PageRegistry()
        pages.register(PageDefinition(name: "clocked", title: "Clocked") { _ in ClockedTitles.titles(store) })
        let version = try await withSite(pages: pages) { server, _ in
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
