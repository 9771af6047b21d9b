import HTTPTestSupport
import HostileTextSupport
import MicroHTTP
import PropertyBased
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

@Suite("Page routes")
struct PageRoutesTests {
    @Test func pageIsHTMLWithAStrictContentSecurityPolicyAndJSONOnRequest() async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            let html = try await connection.request("GET", "/pages/items")
            #expect(html.status == 200)
            #expect(html.header("Content-Type") == "text/html; charset=utf-8")
            let policy = try #require(html.header("Content-Security-Policy"))
            #expect(policy.contains("script-src 'self'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(html.text.contains(#"<script src="/public/table-pages.js" defer></script>"#))
            #expect(!html.text.contains("<script>"))
            #expect(html.text.contains(#"data-events="/pages/items/events""#))
            #expect(html.text.contains(#"data-row="item-3""#))

            let bySuffix = try await connection.request("GET", "/pages/items.json")
            let byAccept = try await connection.request("GET", "/pages/items", headers: [("Accept", "application/json")])
            #expect(bySuffix.header("Content-Type") == "application/json; charset=utf-8")
            #expect(bySuffix.text == byAccept.text)
            #expect(bySuffix.text.hasPrefix(#"{"title":"Items","version":"#))
        }
    }

    @Test func indexListsPagesAsHTMLAndJSON() async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/").text.contains(#"<a href="/pages/items">"#))
            let json = try await connection.request("GET", "/.json").text
            #expect(json == #"{"title":"TablePages","pages":[{"name":"items","title":"Items","summary":"","url":"/pages/items","variants":{"size":["small","big"]}}]}"#)
        }
    }

    @Test func sectionsArePagedWithANextLink() async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            let first = try await connection.request("GET", "/pages/items/sections/items.json?limit=2").text
            #expect(first.contains(#""rows":[{"id":"item-1""#))
            // JSON's next links lead to JSON: a script following them never gets an HTML fragment.
            #expect(first.contains(#""next":"/pages/items/sections/items.json?after=item-2\u0026limit=2""#))
            let second = try await connection.request("GET", "/pages/items/sections/items.json?after=item-2&limit=2").text
            #expect(second.contains(#""rows":[{"id":"item-3""#))
            let row = try await connection.request("GET", "/pages/items/rows/item-4")
            #expect(row.text.hasPrefix("<!doctype html>"), "a row's own URL is a document")
            #expect(row.text.contains(#"<div class="tk-rows" role="table"><div id="row-item-4""#))
            #expect(row.text.contains(#"<p class="tk-back"><a href="/pages/items">"#), "with a link back to its page")
        }
    }

    @Test func aPageWithoutAPositionalPagerStartsAtAPositionOfItsLiveTable() async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            // Six rows: item-1 … item-5, locked.
            let third = try await connection.request("GET", "/pages/items/sections/items.json?_at=2&limit=2").text
            #expect(third.contains(#""rows":[{"id":"item-3""#))
            #expect(third.contains(#""next":"/pages/items/sections/items.json?after=item-4\u0026limit=2""#))
            let first = try await connection.request("GET", "/pages/items.json?_at=0&limit=1").text
            #expect(first.contains(#""rows":[{"id":"item-1""#))
            for past in ["6", "7", "999999999999"] {
                let empty = try await connection.request("GET", "/pages/items/sections/items.json?_at=\(past)").text
                #expect(empty.contains(#""rows":[]"#), "\(past)")
            }
        }
    }

    @Test(arguments: [
        ("GET", "/pages/items/sections/items?_at=-1", 400),
        ("GET", "/pages/items/sections/items?_at=1e3", 400),
        ("GET", "/pages/items/sections/items?_at=1000000000000", 400),
        ("GET", "/pages/items/sections/items?_at=1&after=item-1", 400),
        ("GET", "/pages/items?_at=x", 400),
        ("GET", "/pages/nope", 404),
        ("GET", "/pages/items/rows/nope", 404),
        ("GET", "/pages/items/sections/nope", 404),
        ("GET", "/pages/items/sections/items?limit=5000", 400),
        ("GET", "/pages/items/sections/items?limit=ten", 400),
        ("GET", "/pages/items/sections/items?after=nope", 400),
        ("GET", "/pages/items?size=huge", 400),
        ("GET", "/pages/items/events?format=xml", 400),
        ("GET", "/pages/items/rows/%01bad", 400),
        ("GET", "/pages/items/rows/bad%zz", 400),
        ("POST", "/pages/items/rows/locked/select", 409),
        ("POST", "/pages/items/rows/nope/select", 404),
        ("DELETE", "/pages/items/rows/locked", 409),
        ("POST", "/pages/items/rows/item-1/actions/nope", 404),
        ("PUT", "/pages/items", 405),
    ])
    func clientMistakesGetClearErrors(method: String, path: String, status: Int) async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            let response = try await connection.request(method, path, headers: [("Accept", "application/json")])
            #expect(response.status == status)
            #expect(response.text.hasPrefix(#"{"error":{"status":\#(status),"message":""#))
        }
    }

    @Test(arguments: [
        (#"{"section":"items"#, "not valid JSON"),
        (#"[1,2]"#, "JSON object"),
        (#"{"section":{"a":1}}"#, "must be a string"),
        (#"{"after":"item-2"}"#, "non-empty"),
        (#"{"section":"items","before":"item-1","after":"item-2"}"#, "not both"),
        (#"{"section":"items","after":"item-3"}"#, "next to itself"),
    ])
    func malformedMoveBodiesGet400(body: String, message: String) async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            let response = try await connection.request(
                "POST", "/pages/items/rows/item-3/move",
                headers: [("Content-Type", "application/json"), ("Accept", "application/json")], body: Array(body.utf8)
            )
            #expect(response.status == 400)
            #expect(response.text.contains(message))
        }
    }

    @Test func actionsChangeTheTableForScriptsAndForms() async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            let json: [(String, String)] = [("Content-Type", "application/json"), ("Accept", "application/json")]
            let created = try await connection.request("POST", "/pages/items/sections/items/rows", headers: json, body: Array(#"{"title":"<b>Milk</b>"}"#.utf8))
            #expect(created.status == 201)
            let moved = try await connection.request("POST", "/pages/items/rows/item-5/move", headers: json, body: Array(#"{"section":"items","before":"item-1"}"#.utf8))
            #expect(moved.status == 200)
            let deleted = try await connection.request("DELETE", "/pages/items/rows/item-2", headers: [("Accept", "application/json")])
            #expect(deleted.status == 200)
            // A browser form without JavaScript: POST with _method=DELETE, then a redirect back.
            let form = try await connection.request(
                "POST", "/pages/items/rows/item-3", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("_method=DELETE".utf8)
            )
            #expect(form.status == 303)
            #expect(form.header("Location") == "/pages/items")

            let page = try await connection.request("GET", "/pages/items.json").text
            let order = ["item-5", "item-1", "item-4", "locked", "new-6"].map { #""id":"\#($0)""# }
            let positions = order.compactMap { page.firstRange(of: $0)?.lowerBound }
            #expect(positions.count == order.count && positions == positions.sorted())
            #expect(!page.contains(#""id":"item-2""#) && !page.contains(#""id":"item-3""#))
            #expect(page.contains(#""title":"\u003cb\u003eMilk\u003c/b\u003e""#))
            let html = try await connection.request("GET", "/pages/items").text
            #expect(html.contains("&lt;b&gt;Milk&lt;/b&gt;"))
            #expect(!html.contains("<b>Milk"))
        }
    }

    @Test func variantsAreSeparateTables() async throws {
        try await withSite { server, site in
            let connection = try await TestConnection(port: server.port)
            _ = try await connection.request("POST", "/pages/items/rows/item-1/select?size=big")
            let small = try await connection.request("GET", "/pages/items.json").text
            let big = try await connection.request("GET", "/pages/items.json?size=big").text
            #expect(small.contains(#""id":"item-1","kind":"subtitle","height":null,"title":"Item 1","subtitle":"open""#))
            #expect(big.contains(#""subtitle":"done""#))
            #expect(site.hosts.all.count == 2)
        }
    }
}

@Suite("Patch log")
struct PatchLogTests {
    static func entry(_ id: Int) -> PatchLog.Entry {
        PatchLog.Entry(id: id, withHTML: [UInt8(id % 256)], withoutHTML: [])
    }

    @Test func replaysWhatWasMissedAndResetsWhatIsGone() {
        var log = PatchLog(capacity: 3, latestID: 10)
        #expect(log.replay(after: 10) == .upToDate)
        #expect(log.replay(after: 9) == .reset)
        for id in 11...15 { log.append(Self.entry(id)) }
        #expect(log.replay(after: 15) == .upToDate)
        #expect(log.replay(after: 13) == .entries([Self.entry(14), Self.entry(15)][...]))
        #expect(log.replay(after: 12) == .entries([Self.entry(13), Self.entry(14), Self.entry(15)][...]))
        #expect(log.replay(after: 11) == .reset)
        #expect(log.replay(after: 16) == .reset)
        #expect(log.replay(after: -1) == .reset)
    }
}

@Suite("Render cache")
struct RenderCacheTests {
    @Test func aCachedPageIsNeverServedAfterAChange() async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            // Twice: the second answer comes from the cache.
            for _ in 0..<2 {
                #expect(try await connection.request("GET", "/pages/items.json").text.contains(#""id":"item-1","kind":"subtitle","height":null,"title":"Item 1","subtitle":"open""#))
            }
            _ = try await connection.request("POST", "/pages/items/rows/item-1/select")
            let after = try await connection.request("GET", "/pages/items.json").text
            #expect(after.contains(#""title":"Item 1","subtitle":"done""#))
            let html = try await connection.request("GET", "/pages/items")
            #expect(html.header("Content-Security-Policy") != nil)
            #expect(try await connection.request("GET", "/pages/items").text == html.text)
        }
    }

    @Test func keepsOnlyTheNewestStampOfAVariant() {
        let cache = RenderCache(byteLimit: 1 << 20)
        let key = RenderCache.Key(variant: LiveBoundsFixtures.variant("a"), json: true, limit: nil, view: .jsonView)
        let v5 = RenderCache.Stamp(version: 5, generation: 1)
        let v6 = RenderCache.Stamp(version: 6, generation: 1)
        cache.store([1], for: key, stamp: v5)
        #expect(cache.body(for: key, stamp: v5) == [1])
        #expect(cache.body(for: key, stamp: v6) == nil)
        cache.store([2], for: key, stamp: v6)
        cache.store([9], for: key, stamp: v5)
        #expect(cache.body(for: key, stamp: v6) == [2])
        #expect(cache.body(for: key, stamp: v5) == nil)
        // Same version, data re-read: the earlier generation's body is not served.
        #expect(cache.body(for: key, stamp: RenderCache.Stamp(version: 6, generation: 2)) == nil)
    }

    @Test func aLaterGenerationIsNewerWhateverItsVersion() {
        // A host's own ids lie above any database clock id: a re-read that follows the clock again
        // has a lower version but a later generation, and its bodies replace the earlier ones.
        let cache = RenderCache(byteLimit: 1 << 20)
        let key = RenderCache.Key(variant: LiveBoundsFixtures.variant("a"), json: true, limit: nil, view: .jsonView)
        let local = RenderCache.Stamp(version: PageVersions.localIDs.lowerBound + 3, generation: 1)
        let clock = RenderCache.Stamp(version: 42, generation: 2)
        cache.store([1], for: key, stamp: local)
        cache.store([2], for: key, stamp: clock)
        cache.store([9], for: key, stamp: local)
        #expect(cache.body(for: key, stamp: clock) == [2])
        #expect(cache.body(for: key, stamp: local) == nil)
    }
}

@Suite("Patch log chains")
struct PatchLogChainTests {
    @Test func idsNameStatesSoSkippedOnesAreUnknownAndKeptOnesReplay() {
        var log = PatchLog(capacity: 8, latestID: 0)
        log.append(PatchLogTests.entry(1))
        log.append(PatchLogTests.entry(5))
        // 5 came right after 1: a client at 1 needs only it; no state was ever named 4.
        #expect(log.replay(after: 1) == .entries([PatchLogTests.entry(5)][...]))
        #expect(log.replay(after: 0) == .entries([PatchLogTests.entry(1), PatchLogTests.entry(5)][...]))
        #expect(log.replay(after: 4) == .reset)
        #expect(log.replay(after: 5) == .upToDate)
    }

    /// For any chain of distinct ids in any order (a database's versions, then ids of the host's own):
    /// a replay is exactly the patches after the state the client names when that state is kept, and
    /// a reset for every other id.
    @Test func replaysExactlyTheKeptChainAfterAnyIdItHolds() async {
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...1_000_000).array(of: 0...40), Gen.int(in: 1...12)) { candidates, capacity in
            var ids: [Int] = []
            for id in candidates where id != 7 && !ids.contains(id) { ids.append(id) }
            var log = PatchLog(capacity: capacity, latestID: 7)
            for id in ids { log.append(PatchLogTests.entry(id)) }
            let states = [7] + ids
            let kept = Array(ids.suffix(capacity))
            let firstKeptState = states.count - kept.count - 1
            for probe in states + [-1, 1_000_001] {
                let expected: PatchLog.Replay
                if probe == states.last {
                    expected = .upToDate
                } else if let position = states.lastIndex(of: probe), position >= firstKeptState {
                    expected = .entries(ids[position...].map(PatchLogTests.entry)[...])
                } else {
                    expected = .reset
                }
                #expect(log.replay(after: probe) == expected)
            }
        }
    }
}
