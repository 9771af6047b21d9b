import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
@testable import TablePages
@testable import TablePagesDatabase
import TableStore
@testable import TablePagesTestSupport
import Testing

/// A table created, altered or dropped while the site runs is served at once, through the site's
/// own registry: its page, its `.json`, its place in the index, its writer, its editing, and
/// Datasette's URLs.
@Suite("Tables created while the site runs")
struct DatabaseLiveSchemaTests {
    /// A site serving a one-table database writable (its trail in a file of its own), with the
    /// editing feature; a token that may write.
    struct Fixture {
        let site: Site
        let tables: DatabaseTables
        let store: Store
        let database: TestDatabase
        let token: String

        func send(_ method: HTTPMethod, _ path: String, form: String = "", json: String = "") async -> (status: Int, text: String) {
            var headers: HTTPHeaders = ["Accept": "application/json", "Authorization": "Bearer " + token]
            if !form.isEmpty { headers["Content-Type"] = "application/x-www-form-urlencoded" }
            if !json.isEmpty { headers["Content-Type"] = "application/json" }
            let request = Request(
                method: method, path: path, pathSegments: path.split(separator: "/").map(String.init), queryItems: [],
                headers: headers, body: Array((json.isEmpty ? form : json).utf8)
            )
            let response = await site.router.respond(to: request)
            return (response.status, String(decoding: response.bodyBytes, as: UTF8.self))
        }
    }

    static func withFixture(_ body: (Fixture) async throws -> Void) async throws {
        let database = try TestDatabase { db in try db.execute(sql: "CREATE TABLE kinds (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO kinds VALUES (1, 'tea')") }
        let trail = NSTemporaryDirectory() + "tablepages-live-schema-\(UUID().uuidString).sqlite"
        defer {
            database.remove()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: trail + suffix) }
        }
        var logger = Logger(label: "DatabaseLiveSchemaTests")
        logger.logLevel = .warning
        let store = try Store.openExisting(path: database.path, writable: true, logger: logger)
        let tables = try DatabaseTables(store: store, audit: try DatabaseAuditTrail.sqlite(path: trail, maxRows: 100), logger: logger)
        let credentials = MemoryCredentialStore()
        let token = try AccessTokens.create(name: "editor", mayWrite: true, pages: nil, in: credentials)
        var datasette = try DatasetteAPI(store: store, databaseName: "shop", logger: logger)
        datasette.writable = true
        datasette.writers = tables.writers
        datasette.tables = tables
        let sqlPage = SQLPage(runner: try QueryPages.sqliteRunner(path: database.path, limits: QueryLimits()), datasette: datasette, onChange: { _ in })
        let site = Site(
            title: "Shop", features: [tables, try DatabaseEditing(writers: tables.writers), sqlPage], logger: logger, access: AccessSettings(credentials: credentials)
        )
        try await body(Fixture(site: site, tables: tables, store: store, database: database, token: token))
        store.stopWatching()
    }

    @Test("A created table has its page, .json and index entry, and is written through its page; an altered one shows its new columns")
    func createdAndAltered() async throws {
        try await Self.withFixture { fixture in
            #expect(await fixture.send(.get, "/pages/birds").status == 404)
            try fixture.store.write { db in try db.execute(sql: "CREATE TABLE birds (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO birds VALUES (1, 'Tweety')") }
            try fixture.tables.reloadSchema()
            let page = await fixture.send(.get, "/pages/birds")
            #expect(page.status == 200 && page.text.contains("Tweety"), "\(page)")
            #expect(await fixture.send(.get, "/").text.contains("\"birds\""), "listed in the index")
            #expect(fixture.site.pages.page(named: "birds") != nil, "in the site's one registry")
            #expect(fixture.tables.writers.writableTables.contains("birds"))
            let inserted = await fixture.send(.post, "/pages/birds/-/insert", form: "v.name=Zazu")
            #expect(inserted.status == 201, "\(inserted.text)")
            #expect(try fixture.store.read { db in try String.fetchOne(db, sql: "SELECT name FROM birds WHERE id = 2") } == "Zazu")

            try fixture.store.write { db in try db.execute(sql: "ALTER TABLE birds ADD COLUMN colour TEXT DEFAULT 'blue'") }
            try fixture.tables.reloadSchema()
            let altered = await fixture.send(.get, "/pages/birds")
            #expect(altered.text.contains("colour") && altered.text.contains("blue"), "the page made before the change is dropped: \(altered.text)")
            let form = await fixture.send(.get, "/pages/birds/-/insert")
            #expect(form.status == 200 && form.text.contains("colour"), "the insert form has the new column")
            #expect(await fixture.send(.post, "/pages/birds/-/insert", form: "v.name=Iago&v.colour=red").status == 201)
        }
    }

    @Test("A table another process creates is served within the store's poll")
    func createdElsewhere() async throws {
        try await Self.withFixture { fixture in
            fixture.store.startWatching(every: .milliseconds(50))
            try fixture.database.shell("CREATE TABLE walks (id INTEGER PRIMARY KEY, at TEXT); INSERT INTO walks VALUES (1, 'noon')")
            var status = 0
            for _ in 0..<100 where status != 200 {
                try await Task.sleep(for: .milliseconds(50))
                status = await fixture.send(.get, "/pages/walks").status
            }
            #expect(status == 200)
            #expect(await fixture.send(.get, "/pages/kinds").status == 200, "the other tables stay")
        }
    }

    @Test("Replacing a page drops its variants and tells their followers to fetch it again")
    func replacedPageResetsItsVariants() async throws {
        try await Self.withFixture { fixture in
            _ = await fixture.send(.get, "/pages/kinds")
            #expect(fixture.site.hosts.all.contains { $0.variant.page == "kinds" })
            try fixture.store.write { db in try db.execute(sql: "ALTER TABLE kinds ADD COLUMN note TEXT") }
            try fixture.tables.reloadSchema()
            #expect(!fixture.site.hosts.all.contains { $0.variant.page == "kinds" })
            #expect(await fixture.send(.get, "/pages/kinds").text.contains("note"))
        }
    }

    @Test("Datasette's URLs follow a table another process creates, as its page does")
    func datasetteFollowsOtherProcesses() async throws {
        try await Self.withFixture { fixture in
            try fixture.database.shell("CREATE TABLE walks (id INTEGER PRIMARY KEY, at TEXT); INSERT INTO walks VALUES (1, 'noon')")
            try fixture.tables.reloadSchema()
            let rows = await fixture.send(.get, "/shop/walks.json")
            #expect(rows.status == 200 && rows.text.contains("noon"), "\(rows)")
            #expect(await fixture.send(.post, "/shop/walks/-/insert", json: #"{"row": {"at": "dusk"}}"#).status == 201, "and takes writes")
        }
    }

    @Test("A table another links to is served again with the link; an unrelated new table leaves it be")
    func linkedTablesFollow() async throws {
        try await Self.withFixture { fixture in
            _ = await fixture.send(.get, "/pages/kinds")
            try fixture.store.write { db in try db.execute(sql: "CREATE TABLE walks (id INTEGER PRIMARY KEY)") }
            try fixture.tables.reloadSchema()
            #expect(fixture.site.hosts.all.contains { $0.variant.page == "kinds" }, "kinds' schema is unchanged: its page stays")
            #expect(!(await fixture.send(.get, "/pages/kinds/rows/1").text.contains("orders")))
            try fixture.store.write { db in
                try db.execute(sql: "CREATE TABLE orders (id INTEGER PRIMARY KEY, kind INTEGER REFERENCES kinds(id)); INSERT INTO orders VALUES (1, 1), (2, 1)")
            }
            try fixture.tables.reloadSchema()
            #expect(!fixture.site.hosts.all.contains { $0.variant.page == "kinds" }, "kinds is linked to now: its page is replaced")
            let row = await fixture.send(.get, "/pages/kinds/rows/1")
            #expect(row.status == 200 && row.text.contains("orders"), "the row shows the rows linking to it: \(row.text)")
        }
    }

    @Test("A table rebuilt with the same columns is edited through its new writer")
    func rebuiltTableHasItsNewWriter() async throws {
        try await Self.withFixture { fixture in
            #expect(!(await fixture.send(.get, "/pages/kinds/-/insert").text.contains("oolong")))
            try fixture.store.write { db in
                try db.execute(sql: """
                    CREATE TABLE kinds_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'oolong');
                    INSERT INTO kinds_new SELECT * FROM kinds; DROP TABLE kinds; ALTER TABLE kinds_new RENAME TO kinds
                    """)
            }
            try fixture.tables.reloadSchema()
            let form = await fixture.send(.get, "/pages/kinds/-/insert")
            #expect(form.status == 200 && form.text.contains("oolong"), "the form shows the new default: \(form.text)")
            #expect(await fixture.send(.post, "/pages/kinds/-/insert", form: "v.id=5").status == 201, "a row without a name takes the default")
            let name = try fixture.store.read { db in try String.fetchOne(db, sql: "SELECT name FROM kinds WHERE id = 5") }
            #expect(name == "oolong")
        }
    }

    @Test("A dropped table's page and writer go; renaming to and fro keeps one page")
    func droppedTableGoes() async throws {
        try await Self.withFixture { fixture in
            let before = fixture.site.pages.pages.count
            for (from, to) in [("kinds", "sorts"), ("sorts", "kinds"), ("kinds", "sorts")] {
                try fixture.store.write { db in try db.execute(sql: "ALTER TABLE \(from) RENAME TO \(to)") }
                try fixture.tables.reloadSchema()
            }
            #expect(fixture.site.pages.pages.count == before)
            #expect(await fixture.send(.get, "/pages/kinds").status == 404)
            #expect(await fixture.send(.get, "/pages/sorts").status == 200)
            #expect(!fixture.tables.writers.writableTables.contains("kinds"))
            #expect(!(await fixture.send(.get, "/").text.contains("\"kinds\"")), "gone from the index")
        }
    }

    @Test("A write that changed the schema is answered as written when the reload after it fails")
    func writeStandsWhenTheReloadFails() async throws {
        struct ReloadFailed: Error {}
        try await Self.withFixture { fixture in
            fixture.tables.followSchema { throw ReloadFailed() }
            let answer = await fixture.send(.post, "/shop/kinds/-/insert", json: #"{"row": {"name": "green", "colour": "jade"}, "alter": true}"#)
            #expect(answer.status == 201, "\(answer)")
            let written = try fixture.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM kinds WHERE colour = 'jade'") }
            #expect(written == 1, "written once, and answered so")
        }
    }
}
