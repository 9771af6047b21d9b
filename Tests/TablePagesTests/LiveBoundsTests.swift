import HTTPTestSupport
import HostileTextSupport
import MicroHTTP
import PropertyBased
import TableKit
@testable import TablePagesTestSupport
import Testing
@testable import TablePages
import TablePagesDatabase

@Suite("Render cache budget")
struct RenderCacheBudgetTests {
    static let stamp = RenderCache.Stamp(version: 1, generation: 1)

    static func key(_ name: String, limit: Int? = nil) -> RenderCache.Key {
        RenderCache.Key(variant: LiveBoundsFixtures.variant(name), json: true, limit: limit, view: .jsonView)
    }

    @Test func theLeastRecentlyUsedBodiesGoWhenTheBudgetIsFull() {
        let entry = 1000 + RenderCache.entryOverhead
        let cache = RenderCache(byteLimit: 4 * entry)
        for name in ["a", "b", "c", "d"] { cache.store(Array(repeating: 1, count: 1000), for: Self.key(name), stamp: Self.stamp) }
        // `a` is used, so `b` is now the least recently used.
        #expect(cache.body(for: Self.key("a"), stamp: Self.stamp) != nil)
        cache.store(Array(repeating: 2, count: 1000), for: Self.key("e"), stamp: Self.stamp)
        #expect(cache.body(for: Self.key("b"), stamp: Self.stamp) == nil)
        for name in ["a", "c", "d", "e"] { #expect(cache.body(for: Self.key(name), stamp: Self.stamp) != nil) }
        #expect(cache.byteCount == 4 * entry)
        #expect(cache.count == 4)
    }

    @Test func aBodyOverAQuarterOfTheBudgetIsNotKept() {
        let cache = RenderCache(byteLimit: 4000)
        cache.store([1], for: Self.key("small"), stamp: Self.stamp)
        cache.store(Array(repeating: 0, count: 1000), for: Self.key("huge"), stamp: Self.stamp)
        #expect(cache.body(for: Self.key("huge"), stamp: Self.stamp) == nil)
        #expect(cache.body(for: Self.key("small"), stamp: Self.stamp) == [1])
        let disabled = RenderCache(byteLimit: 0)
        disabled.store([1], for: Self.key("small"), stamp: Self.stamp)
        #expect(disabled.count == 0)
    }

    @Test func removingAVariantKeepsTheOthers() {
        let cache = RenderCache(byteLimit: 1 << 20)
        for limit in [nil, 5, 10] {
            cache.store([1], for: Self.key("gone", limit: limit), stamp: Self.stamp)
            cache.store([2], for: Self.key("kept", limit: limit), stamp: Self.stamp)
        }
        cache.removeAll(of: LiveBoundsFixtures.variant("gone"))
        #expect(cache.count == 3)
        #expect(cache.body(for: Self.key("gone", limit: 5), stamp: Self.stamp) == nil)
        #expect(cache.body(for: Self.key("kept", limit: 5), stamp: Self.stamp) == [2])
        #expect(cache.byteCount == 3 * (1 + RenderCache.entryOverhead))
    }

    /// One step of a client's use of the cache: a store or a lookup of one of a few keys at one of
    /// a few stamps, with a body of some size.
    struct Step: Sendable {
        let isStore: Bool
        let variant: Int
        let limit: Int
        let version: Int
        let size: Int
    }

    static let steps = zip(Gen.bool, Gen.int(in: 0...3), Gen.int(in: 0...2), Gen.int(in: 0...3), Gen.int(in: 0...700))
        .map { Step(isStore: $0, variant: $1, limit: $2, version: $3, size: $4) }
        .array(of: 1...200)

    /// Against a plain model (an array in order of use): the cache never holds more than its budget,
    /// serves a body only at the exact stamp it was stored at and only the newest stamp's bodies of a
    /// variant, and drops exactly the least recently used.
    @Test func behavesLikeAnLRUListWithinItsBudget() async {
        await propertyCheckFailingOnThrow(input: Self.steps, Gen.int(in: 0...4000)) { steps, budget in
            let cache = RenderCache(byteLimit: budget)
            // Most recently used first: (key, stamp, body).
            var model: [(key: RenderCache.Key, stamp: RenderCache.Stamp, body: [UInt8])] = []
            var newest: [PageVariant: RenderCache.Stamp] = [:]
            for step in steps {
                let key = Self.key("v\(step.variant)", limit: step.limit == 0 ? nil : step.limit)
                let stamp = RenderCache.Stamp(version: step.version, generation: 1)
                if step.isStore {
                    let body = Array(repeating: UInt8(step.version), count: step.size)
                    cache.store(body, for: key, stamp: stamp)
                    let cost = step.size + RenderCache.entryOverhead
                    guard cost <= budget / 4 else { continue }
                    if let stored = newest[key.variant], stored != stamp {
                        guard stamp.version > stored.version else { continue }
                        model.removeAll { $0.key.variant == key.variant }
                    }
                    model.removeAll { $0.key == key }
                    while model.reduce(0, { $0 + $1.body.count + RenderCache.entryOverhead }) + cost > budget, !model.isEmpty {
                        model.removeLast()
                    }
                    model.insert((key, stamp, body), at: 0)
                    newest[key.variant] = stamp
                } else {
                    let expected = model.firstIndex { $0.key == key && $0.stamp == stamp }
                    #expect(cache.body(for: key, stamp: stamp) == expected.map { model[$0].body })
                    if let expected { model.insert(model.remove(at: expected), at: 0) }
                }
                for variant in newest.keys where !model.contains(where: { $0.key.variant == variant }) { newest[variant] = nil }
                #expect(cache.byteCount <= budget)
                #expect(cache.count == model.count)
            }
        }
    }
}

@Suite("Patch log bytes")
struct PatchLogByteTests {
    @Test func theOldestPatchesGoWhenTheLogPassesItsBytes() {
        var log = PatchLog(capacity: 100, byteLimit: 1000, latestID: 0)
        for id in 1...5 { log.append(LiveBoundsFixtures.patch(id, size: 150)) }
        // 300 bytes a patch (both formats): three fit in 1,000.
        #expect(log.byteCount == 900)
        #expect(log.count == 3)
        #expect(log.replay(after: 2) == .entries([LiveBoundsFixtures.patch(3, size: 150), LiveBoundsFixtures.patch(4, size: 150), LiveBoundsFixtures.patch(5, size: 150)][...]))
        #expect(log.replay(after: 1) == .reset)
    }

    @Test func aPatchLargerThanTheLogIsNotKeptAndItsClientsGetAReset() {
        var log = PatchLog(capacity: 100, byteLimit: 1000, latestID: 0)
        log.append(LiveBoundsFixtures.patch(1, size: 10))
        log.append(LiveBoundsFixtures.patch(2, size: 600))
        #expect(log.count == 0)
        #expect(log.byteCount == 0)
        #expect(log.replay(after: 1) == .reset)
        #expect(log.replay(after: 2) == .upToDate)
        log.append(LiveBoundsFixtures.patch(3, size: 10))
        #expect(log.replay(after: 2) == .entries([LiveBoundsFixtures.patch(3, size: 10)][...]))
    }

    /// For any sizes and bounds: the log keeps the longest run of newest patches within both bounds,
    /// and a replay is exactly the patches after the client's id, consecutive, or a reset.
    @Test func keepsTheLongestNewestRunWithinBothBoundsAndReplaysItExactly() async {
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...400).array(of: 0...120), Gen.int(in: 1...20), Gen.int(in: 0...3000)) { sizes, capacity, byteLimit in
            var log = PatchLog(capacity: capacity, byteLimit: byteLimit, latestID: 100)
            for (offset, size) in sizes.enumerated() {
                log.append(LiveBoundsFixtures.patch(101 + offset, size: size))
                let appended = sizes[...offset]
                // The reference: the longest suffix within the count and the bytes.
                var kept = 0
                var bytes = 0
                for size in appended.reversed() {
                    guard kept < capacity, bytes + 2 * size <= byteLimit else { break }
                    kept += 1
                    bytes += 2 * size
                }
                #expect(log.count == kept)
                #expect(log.byteCount == bytes)
                let latest = 101 + offset
                for lastSeen in (latest - kept - 2)...(latest + 1) {
                    switch log.replay(after: lastSeen) {
                    case .upToDate:
                        #expect(lastSeen == latest)
                    case .reset:
                        #expect(lastSeen > latest || lastSeen < latest - kept)
                    case .entries(let entries):
                        #expect(entries.map(\.id) == Array((lastSeen + 1)...latest))
                        #expect(entries.allSatisfy { $0.withHTML.count == sizes[$0.id - 101] })
                    }
                }
            }
        }
    }
}

@Suite("Live channel replay bound")
struct LiveChannelReplayTests {
    static func channel() -> LiveChannel {
        let channel = LiveChannel(latestID: 0, logCapacity: 100, logByteLimit: 1 << 20, subscriberBufferLimit: 1000)
        for id in 1...5 { channel.publish(LiveBoundsFixtures.patch(id, size: 300)) }
        return channel
    }

    @Test func aReplayThatFitsTheSubscribersBufferIsSentWhole() {
        let channel = Self.channel()
        let stream = EventStream()
        channel.subscribe(stream, format: .json, lastSeenID: 2)
        #expect(stream.bufferedByteCount == 900)
        #expect(!stream.isClosed)
        #expect(channel.subscriberCount == 1)
    }

    @Test func aReplayLargerThanTheSubscribersBufferGetsAResetInstead() {
        let channel = Self.channel()
        let stream = EventStream()
        // The first line every event stream gets, already unread.
        stream.write(Array("retry: 2000\n\n".utf8))
        channel.subscribe(stream, format: .html, lastSeenID: 1)
        #expect(stream.bufferedByteCount == 13 + LiveChannel.resetEvent(latestID: 5).count)
        #expect(stream.isClosed)
        #expect(channel.subscriberCount == 0)
        // Fitting exactly is still a replay.
        let exact = LiveChannel(latestID: 0, logCapacity: 100, logByteLimit: 1 << 20, subscriberBufferLimit: 900)
        for id in 1...3 { exact.publish(LiveBoundsFixtures.patch(id, size: 300)) }
        let fits = EventStream()
        exact.subscribe(fits, format: .html, lastSeenID: 0)
        #expect(fits.bufferedByteCount == 900)
        #expect(!fits.isClosed)
    }
}

@Suite("Live variants bound")
struct LiveVariantBoundTests {
    @Test func theProcessKeepsAtMostMaxLiveVariantsAcrossPages() async throws {
        var settings = LiveSettings()
        settings.maxLiveVariants = 5
        let hosts = LiveBoundsFixtures.hosts(LiveBoundsFixtures.registry(pages: ["a", "b"]), settings: settings)
        for n in 0..<12 {
            _ = try await LiveBoundsFixtures.host(hosts, ["n": String(n)], page: n % 2 == 0 ? "a" : "b")
        }
        let kept = Set(hosts.all.map { $0.variant.page + ($0.variant["n"] ?? "") })
        #expect(kept == ["b7", "a8", "b9", "a10", "b11"])
    }

    @Test func theProcessKeepsItsVariantsWithinTheirEstimatedBytes() async throws {
        var settings = LiveSettings()
        settings.liveVariantsByteLimit = 2 << 20
        let hosts = LiveBoundsFixtures.hosts(LiveBoundsFixtures.registry(pages: ["a", "b"]), settings: settings)
        var newest: PageHost?
        for n in 0..<30 {
            newest = try await LiveBoundsFixtures.host(hosts, ["n": String(n), "rows": "200", "width": "1000"], page: n % 2 == 0 ? "a" : "b")
            #expect(hosts.estimatedByteCount <= settings.liveVariantsByteLimit)
        }
        #expect(hosts.all.count >= 2)
        #expect(hosts.all.count < 30)
        #expect(hosts.all.contains { $0 === newest })
    }

    @Test func aWatchedVariantIsKeptButCounts() async throws {
        var settings = LiveSettings()
        settings.maxLiveVariants = 3
        let hosts = LiveBoundsFixtures.hosts(LiveBoundsFixtures.registry(), settings: settings)
        let watched = try await LiveBoundsFixtures.host(hosts, ["n": "watched"])
        let stream = EventStream()
        watched.channel.subscribe(stream, format: .json, lastSeenID: nil)
        for n in 0..<10 { _ = try await LiveBoundsFixtures.host(hosts, ["n": String(n)]) }
        #expect(hosts.all.count == 3)
        #expect(hosts.all.contains { $0 === watched })
    }

    @Test func aPageOfItsOwnBoundDropsItsUnwatchedVariantsAndRefusesPastItsWatchedOnes() async throws {
        var registry = LiveBoundsFixtures.registry(pages: ["open", "other"])
        var bounded = try #require(registry.page(named: "open"))
        bounded.maxVariants = 2
        registry.register(bounded)
        let hosts = LiveBoundsFixtures.hosts(registry, settings: LiveSettings())
        for n in 0..<6 { _ = try await LiveBoundsFixtures.host(hosts, ["n": String(n)]) }
        #expect(hosts.all.count { $0.variant.page == "open" } == 2)
        // Other pages keep the process's bounds.
        for n in 0..<6 { _ = try await LiveBoundsFixtures.host(hosts, ["n": String(n)], page: "other") }
        #expect(hosts.all.count { $0.variant.page == "other" } == 6)
        let streams = [EventStream(), EventStream()]
        for (n, stream) in streams.enumerated() {
            try await LiveBoundsFixtures.host(hosts, ["n": "w\(n)"]).channel.subscribe(stream, format: .json, lastSeenID: nil)
        }
        // Each of the two is watched: a third is refused, not kept past the bound.
        let refusal = await #expect(throws: HTTPError.self) { try await LiveBoundsFixtures.host(hosts, ["n": "third"]) }
        #expect(refusal?.status == 503 && refusal?.headers["Retry-After"] != nil)
        #expect(hosts.all.count { $0.variant.page == "open" } == 2)
        // A watched variant is served as ever.
        _ = try await LiveBoundsFixtures.host(hosts, ["n": "w0"])
    }

    @Test func droppingAVariantDropsItsRenderedPages() async throws {
        var settings = LiveSettings()
        settings.maxLiveVariants = 1
        let hosts = LiveBoundsFixtures.hosts(LiveBoundsFixtures.registry(), settings: settings)
        let first = try await LiveBoundsFixtures.host(hosts, ["n": "1"])
        let (body, stamp) = await first.renderPage(as: .json)
        hosts.renderCache.store(body, for: RenderCache.Key(variant: first.variant, json: true, limit: nil, view: .jsonView), stamp: stamp)
        #expect(hosts.renderCache.count == 1)
        _ = try await LiveBoundsFixtures.host(hosts, ["n": "2"])
        #expect(hosts.renderCache.count == 0)
    }

    @Test func theEstimateGrowsWithTheRowsAndIsAtLeastTheirJSON() async throws {
        let hosts = LiveBoundsFixtures.hosts(LiveBoundsFixtures.registry(), settings: LiveSettings())
        let small = try await LiveBoundsFixtures.host(hosts, ["n": "1", "rows": "10", "width": "500"])
        let large = try await LiveBoundsFixtures.host(hosts, ["n": "2", "rows": "1000", "width": "500"])
        let growth = large.estimatedByteCount - small.estimatedByteCount
        let (json, _) = await large.renderPage(as: .json, limit: 1000)
        // 990 more rows, each costed at its fixed cost plus 1.5 times its JSON (within 10 %).
        let expected = 990 * TableMemoryEstimate.rowBytes + json.count * 3 / 2
        #expect(growth > expected * 9 / 10)
        #expect(growth < expected * 11 / 10)
    }
}

@Suite("Render cache and re-reads")
struct RenderCacheRefreshTests {
    /// A page rendered before a re-read that changed no version (counts outside the table's rows
    /// can change without one) must not be served after it, even when its store in the cache comes
    /// late, as it does when `page` resumes after the re-read.
    ///
    /// The re-read is asked for directly: a row written past the window used to be such a change,
    /// but the page's header now shows the row count, so that write makes a new version (a
    /// `replace-header` op), and waiting for the re-read it starts only caught the moment between
    /// the new generation and the new version when the re-read took longer than the poll.
    @Test func aPageRenderedBeforeARereadIsNotServedAfterIt() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, site, _ in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/pages/items").text.contains(#"data-remaining="2245""#))
            let host = try #require(site.hosts.all.first { $0.variant.page == "items" })
            let (before, stamp) = await host.renderPage(as: .html)
            host.queueRefresh()
            await host.refreshIfQueued()
            #expect(host.renderStamp != stamp, "a re-read starts a new generation")
            #expect(host.renderStamp.version == stamp.version, "a re-read that finds nothing new makes no new version")
            // The store of the render that started before the re-read arrives after it.
            let key = RenderCache.Key(variant: host.variant, json: false, limit: nil, view: PageDocument.View(account: .signInOffered, controls: false))
            site.hosts.renderCache.store(before, for: key, stamp: stamp)
            let servedStale = site.hosts.renderCache.body(for: key, stamp: host.renderStamp) != nil
            #expect(!servedStale, "the page rendered before the re-read would be served after it")
            // A row written past the window by another process reaches the page's count.
            try database.shell("INSERT INTO items (id, name) VALUES (9999, 'late')")
            #expect(await eventually { (try? await connection.request("GET", "/pages/items").text.contains(#"data-remaining="2246""#)) == true })
        }
    }
}
