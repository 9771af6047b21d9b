import Foundation
import GRDB
import HostileTextSupport
import HTTPTestSupport
import MicroHTTP
import PropertyBased
@testable import TablePages
import TablePagesExamples
@testable import TablePagesTestSupport
import TableStore
import Testing

/// Per-page rules, per-viewer pages and what viewers who may not write see, over the examples'
/// shared to-do list (`/pages/todo`) and each person's own (`/pages/mine`, per viewer, private).
@Suite("Per-page access rules and per-viewer pages")
struct PageAccessTests {
    typealias F = AccessFixtures

    private static func add(_ title: String, as actor: Actor, on client: TestConnection) async throws -> TestResponse {
        try await client.request(
            "POST", "/pages/mine/sections/todos/rows", headers: F.headers(actor) + [("Content-Type", "application/json")],
            body: Array(#"{"title":"\#(title)"}"#.utf8)
        )
    }

    @Test func twoActorsSeeOnlyTheirOwnRowsOnAPerViewerPage() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file, access: F.settings) { server, store in
                let client = try await TestConnection(port: server.port)
                #expect(try await Self.add("Alice's secret", as: F.alice, on: client).status == 201)
                #expect(try await Self.add("Bob's secret", as: F.bob, on: client).status == 201)
                let alices = try await client.request("GET", "/pages/mine", headers: F.headers(F.alice)).text
                let bobs = try await client.request("GET", "/pages/mine", headers: F.headers(F.bob)).text
                #expect(alices.contains("Alice's secret") && !alices.contains("Bob's secret"))
                #expect(bobs.contains("Bob's secret") && !bobs.contains("Alice's secret"))
                // Asked again, each is answered from the render cache: still their own.
                let alicesAgain = try await client.request("GET", "/pages/mine", headers: F.headers(F.alice)).text
                #expect(alicesAgain.contains("Alice's secret") && !alicesAgain.contains("Bob's secret"))
                // Neither list is the shared one, nor does the shared one show them.
                let shared = try await client.request("GET", "/pages/todo", headers: F.headers(F.alice)).text
                #expect(!shared.contains("Alice's secret") && !shared.contains("Bob's secret"))
                // A row of Alice's list is not Bob's to select: his table has no such row.
                let aliceID = try #require(try store.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM todo WHERE owner = ?", arguments: [F.alice.id]) })
                let aliceRow = "todo-\(aliceID)"
                let stolen = try await client.request("POST", "/pages/mine/rows/\(aliceRow)/select", headers: F.headers(F.bob))
                #expect(stolen.status == 404)
                #expect(try store.read { db in try Bool.fetchOne(db, sql: "SELECT isDone FROM todo WHERE id = ?", arguments: [aliceID]) } == false)
                // The list's own form adds to it, for Alice only.
                let form = try await client.request(
                    "POST", "/pages/mine/sections/add/rows", headers: F.headers(F.alice, json: false) + [("Content-Type", "application/x-www-form-urlencoded")],
                    body: Array("title=Added+by+form".utf8)
                )
                #expect(form.status == 303)
                #expect(try await client.request("GET", "/pages/mine", headers: F.headers(F.alice)).text.contains("Added by form"))
                #expect(!(try await client.request("GET", "/pages/mine", headers: F.headers(F.bob)).text.contains("Added by form")))
            }
        }
    }

    /// Any two actor ids, however hostile: a per-viewer page gives them the same variant exactly
    /// when the ids are equal, and a viewer's id never reaches the variant's URL; a page that is not
    /// per viewer gives everyone one variant.
    @Test func perViewerVariantsAreKeyedByTheActorsIDAndNeverShowIt() async {
        let items = TestPages.registry().page(named: "items")!
        let mine = PageDefinition(name: "mine", title: "Mine", variants: ["layout": ["list", "sections"]], perViewer: true, makeRoot: { try items.makeSource($0).root })
        await propertyCheckFailingOnThrow(input: HostileText.text, HostileText.text, Gen.bool) { first, second, sections in
            let query = sections ? ["layout": "sections"] : [:]
            let one = Actor(id: "token:" + first, name: first, mayWrite: true)
            let other = Actor(id: "token:" + second, name: "renamed", mayWrite: false)
            guard case .success(let a) = mine.variant(for: query, viewer: one),
                  case .success(let b) = mine.variant(for: query, viewer: other),
                  case .success(let shared) = items.variant(for: [:], viewer: one),
                  case .success(let sharedToo) = items.variant(for: [:], viewer: other) else {
                Issue.record("a valid query was refused")
                return
            }
            #expect((a == b) == (first == second))
            #expect(a.viewer?.id == one.id)
            #expect(a.url == b.url, "the URL names the variant's shape, never its viewer")
            #expect(shared == sharedToo && shared.viewer == nil)
            if first == second { #expect(a.hashValue == b.hashValue) }
        }
    }

    @Test func aPatchForOneViewerNeverReachesAnotherViewersStream() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file, access: F.settings) { server, _ in
                let aliceStream = try await TestConnection(port: server.port)
                let bobStream = try await TestConnection(port: server.port)
                #expect(try await aliceStream.openStream("/pages/mine/events", headers: F.headers(F.alice, json: false)).status == 200)
                #expect(try await bobStream.openStream("/pages/mine/events", headers: F.headers(F.bob, json: false)).status == 200)
                _ = try await aliceStream.readStream(until: { $0.contains("retry:") })
                _ = try await bobStream.readStream(until: { $0.contains("retry:") })

                let client = try await TestConnection(port: server.port)
                let added = try await Self.add("Only for Alice", as: F.alice, on: client)
                let aliceVersion = try #require(added.text.firstMatch(of: /"version":(\d+)/).flatMap { Int($0.1) })
                let aliceEvent = try #require(events(in: try await aliceStream.readStream(until: { events(in: $0).count == 1 })).first)
                #expect(aliceEvent.contains("Only for Alice"))
                // Bob's own change is the first (and only) patch his stream carries.
                _ = try await Self.add("Only for Bob", as: F.bob, on: client)
                let bobEvents = events(in: try await bobStream.readStream(until: { events(in: $0).count == 1 }))
                #expect(bobEvents.count == 1)
                #expect(bobEvents.allSatisfy { $0.contains("Only for Bob") && !$0.contains("Only for Alice") })
                // Resuming with Alice's event id replays from Bob's own log, never hers.
                let resumed = try await TestConnection(port: server.port)
                _ = try await resumed.openStream("/pages/mine/events", headers: F.headers(F.bob, json: false) + [("Last-Event-ID", String(aliceVersion - 1))])
                let replay = try await resumed.readStream(until: { events(in: $0).count >= 1 })
                #expect(!replay.contains("Only for Alice"))
            }
        }
    }

    /// The audit's reproduction: a token revoked and created again under its name, both before the
    /// server re-reads the credentials (here it re-reads only by hand), was the same actor: its old
    /// stream stayed open and the new holder saw the old holder's private list.
    @Test func aTokenCreatedAgainUnderARevokedOnesNameIsAnotherViewer() async throws {
        try await withExampleDatabase { file in
            let store = try ExamplePages.open(at: file.path)
            store.startWatching(every: .milliseconds(50))
            defer { store.stopWatching() }
            var pages = PageRegistry()
            try ExamplePages.register(store: store, in: &pages)
            let credentials = MemoryCredentialStore()
            let old = try AccessTokens.create(name: "rot", mayWrite: true, pages: nil, in: credentials)
            let access = AccessSettings(credentials: credentials, refreshInterval: .seconds(3600))
            try await withSite(pages: pages, access: access) { server, site in
                func headers(_ token: String) -> [(String, String)] {
                    [("Authorization", "Bearer " + token), ("Accept", "application/json"), ("Content-Type", "application/json")]
                }
                let client = try await TestConnection(port: server.port)
                let added = try await client.request("POST", "/pages/mine/sections/todos/rows", headers: headers(old), body: Array(#"{"title":"Old holder's secret"}"#.utf8))
                #expect(added.status == 201)
                let stream = try await TestConnection(port: server.port)
                #expect(try await stream.openStream("/pages/mine/events", headers: [("Authorization", "Bearer " + old)]).status == 200)
                _ = try await stream.readStream(until: { $0.contains("retry:") })
                let oldActor = try #require(site.access.credentials.actor(forToken: old))

                #expect(try credentials.revokeToken(named: "rot"))
                let new = try AccessTokens.create(name: "rot", mayWrite: true, pages: nil, in: credentials)
                site.access.refreshNow()
                let newActor = try #require(site.access.credentials.actor(forToken: new))
                #expect(newActor.id != oldActor.id)
                #expect(newActor.tokenName == "rot" && oldActor.tokenName == "rot")

                // Ends (rather than timing out) only when the server closes the stream.
                _ = try await stream.readStream(until: { _ in false }, timeout: .seconds(5))
                #expect(try await client.request("GET", "/pages/mine.json", headers: headers(old)).status == 401)
                let mine = try await client.request("GET", "/pages/mine.json", headers: headers(new))
                #expect(mine.status == 200 && !mine.text.contains("Old holder's secret"))
                #expect(try await client.request("POST", "/pages/mine/sections/todos/rows", headers: headers(new), body: Array(#"{"title":"New holder's own"}"#.utf8)).status == 201)
                #expect(try store.read { db in try String.fetchOne(db, sql: "SELECT owner FROM todo WHERE title = 'Old holder''s secret'") } == oldActor.id)
            }
        }
    }

    @Test func anonymousViewersOfAPerViewerPageGet401() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file, access: F.settings) { server, _ in
                let client = try await TestConnection(port: server.port)
                for path in ["/pages/mine", "/pages/mine.json", "/pages/mine/events", "/pages/mine/sections/todos"] {
                    #expect(try await client.request("GET", path, headers: F.headers(nil)).status == 401, "\(path)")
                }
                let added = try await client.request(
                    "POST", "/pages/mine/sections/todos/rows", headers: F.headers(nil) + [("Content-Type", "application/json")],
                    body: Array(#"{"title":"anonymous"}"#.utf8)
                )
                #expect(added.status == 401)
                #expect(added.text.contains("Sign in"))
            }
        }
    }

    @Test func theIndexHidesPrivatePagesFromThoseWhoCannotReadThem() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file, access: F.settings) { server, _ in
                let client = try await TestConnection(port: server.port)
                for (path, json) in [("/.json", true), ("/", false)] {
                    let anonymous = try await client.request("GET", path, headers: F.headers(nil, json: json)).text
                    #expect(anonymous.contains("/pages/todo") && !anonymous.contains("/pages/mine"), "\(path)")
                    let signedIn = try await client.request("GET", path, headers: F.headers(F.alice, json: json)).text
                    #expect(signedIn.contains("/pages/mine"), "\(path)")
                }
            }
        }
    }

    @Test func rulesDenyWritesWith401Or403AndLeaveTheDataUnchanged() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file, access: F.settings) { server, store in
                let client = try await TestConnection(port: server.port)
                let before = try store.read { db in try String.fetchAll(db, sql: "SELECT id || '|' || title || '|' || isDone || '|' || position FROM todo ORDER BY id") }
                let writes: [(String, String, [UInt8])] = [
                    ("POST", "/pages/todo/rows/todo-1/select", []),
                    ("DELETE", "/pages/todo/rows/todo-1", []),
                    ("POST", "/pages/todo/rows/todo-1/actions/rename", Array(#"{"title":"renamed"}"#.utf8)),
                    ("POST", "/pages/todo/sections/todos/rows", Array(#"{"title":"added"}"#.utf8)),
                    ("POST", "/pages/todo/rows/todo-1/move", Array(#"{"section":"todos"}"#.utf8)),
                ]
                for (method, path, body) in writes {
                    let type = [("Content-Type", "application/json")]
                    let anonymous = try await client.request(method, path, headers: F.headers(nil) + type, body: body)
                    #expect(anonymous.status == 401, "\(method) \(path) anonymously")
                    let reader = try await client.request(method, path, headers: F.headers(F.reader) + type, body: body)
                    #expect(reader.status == 403, "\(method) \(path) by an actor who may not write")
                    #expect(reader.text.contains(#""status":403"#))
                }
                let after = try store.read { db in try String.fetchAll(db, sql: "SELECT id || '|' || title || '|' || isDone || '|' || position FROM todo ORDER BY id") }
                #expect(before == after)
                // Reading stays open to everyone; prefetching is a read hint.
                #expect(try await client.request("GET", "/pages/todo.json", headers: F.headers(nil)).status == 200)
                let prefetch = try await client.request(
                    "POST", "/pages/todo/prefetch", headers: F.headers(nil) + [("Content-Type", "application/json")], body: Array(#"{"rows":"todo-1"}"#.utf8)
                )
                #expect(prefetch.status == 204)
                // A signed-in writer gets through.
                #expect(try await client.request("POST", "/pages/todo/rows/todo-1/select", headers: F.headers(F.alice)).status == 200)
            }
        }
    }

    @Test func aPagesOwnRuleNarrowsWhoMayWriteAndRead() async throws {
        var pages = PageRegistry()
        let items = TestPages.registry().page(named: "items")!
        pages.register(PageDefinition(name: "board", title: "Board", access: PageAccess(read: { _ in true }, write: { $0?.tokenName == "alice" }), makeRoot: { try items.makeSource($0).root }))
        pages.register(PageDefinition(name: "archive", title: "Archive", access: .everyoneReads, makeRoot: { try items.makeSource($0).root }))
        pages.register(PageDefinition(name: "alices", title: "Alice's", access: PageAccess(read: { $0?.tokenName == "alice" }, write: { _ in true }), makeRoot: { try items.makeSource($0).root }))
        try await withSite(pages: pages, access: F.settings) { server, _ in
            let client = try await TestConnection(port: server.port)
            #expect(try await client.request("POST", "/pages/board/rows/item-1/select", headers: F.headers(F.bob)).status == 403)
            #expect(try await client.request("POST", "/pages/board/rows/item-1/select", headers: F.headers(F.alice)).status == 200)
            #expect(try await client.request("POST", "/pages/archive/rows/item-1/select", headers: F.headers(F.alice)).status == 403)
            #expect(try await client.request("GET", "/pages/alices", headers: F.headers(F.bob)).status == 403)
            #expect(try await client.request("GET", "/pages/alices", headers: F.headers(nil)).status == 401)
            #expect(try await client.request("GET", "/pages/alices", headers: F.headers(F.alice)).status == 200)
            let bobsIndex = try await client.request("GET", "/.json", headers: F.headers(F.bob)).text
            #expect(bobsIndex.contains("/pages/board") && !bobsIndex.contains("/pages/alices"))
            // Bob sees the board without controls; Alice with them.
            #expect(!(try await client.request("GET", "/pages/board", headers: F.headers(F.bob, json: false)).text.contains("tk-select")))
            #expect(try await client.request("GET", "/pages/board", headers: F.headers(F.alice, json: false)).text.contains("tk-select"))
        }
    }

    @Test func anonymousBrowsersSeeNoControlsAndASignInHintWhateverTheCacheHolds() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file, access: F.settings) { server, _ in
                let client = try await TestConnection(port: server.port)
                // Rendered for a writer first, then asked for anonymously: the cache keeps them apart.
                for _ in 0..<2 {
                    let signedIn = try await client.request("GET", "/pages/todo", headers: F.headers(F.alice, json: false)).text
                    #expect(signedIn.contains("tk-select") && signedIn.contains("tk-delete") && signedIn.contains("tk-move") && signedIn.contains("tk-action"))
                    #expect(!signedIn.contains("tp-signin"))
                    let anonymous = try await client.request("GET", "/pages/todo", headers: F.headers(nil, json: false)).text
                    #expect(!anonymous.contains("<form"), "no select, delete, insert, rename or move forms")
                    #expect(anonymous.contains(#"class="tp-signin" href="/-/signin""#))
                    #expect(anonymous.contains("Buy milk") || anonymous.contains("tk-row"))
                    // An actor who may not write sees no controls either, and no sign-in hint: they are signed in.
                    let reader = try await client.request("GET", "/pages/todo", headers: F.headers(F.reader, json: false)).text
                    #expect(!reader.contains("<form") && !reader.contains("tp-signin"))
                }
                let help = try await client.request("GET", "/-/signin", headers: [("Accept", "text/html")])
                #expect(help.status == 401)
                #expect(help.text.contains("sign-in URL"))
            }
        }
    }

    @Test func readOnlyStreamsCarryRowsWithoutControls() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file, access: F.settings) { server, _ in
                let anonymous = try await TestConnection(port: server.port)
                let writer = try await TestConnection(port: server.port)
                _ = try await anonymous.openStream("/pages/todo/events", headers: F.headers(nil, json: false))
                _ = try await writer.openStream("/pages/todo/events", headers: F.headers(F.alice, json: false))
                _ = try await anonymous.readStream(until: { $0.contains("retry:") })
                _ = try await writer.readStream(until: { $0.contains("retry:") })
                let client = try await TestConnection(port: server.port)
                #expect(try await client.request("POST", "/pages/todo/rows/todo-1/select", headers: F.headers(F.alice)).status == 200)
                let anonymousEvent = try #require(events(in: try await anonymous.readStream(until: { events(in: $0).count == 1 })).first)
                let writerEvent = try #require(events(in: try await writer.readStream(until: { events(in: $0).count == 1 })).first)
                #expect(anonymousEvent.contains(#""row":"todo-1","html":"#) && !anonymousEvent.contains("<form"))
                #expect(writerEvent.contains("tk-select"))
                #expect(eventID(anonymousEvent) == eventID(writerEvent), "one patch, two renderings")
            }
        }
    }
}
