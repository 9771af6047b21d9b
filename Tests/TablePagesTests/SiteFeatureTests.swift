import Foundation
import GRDB
import HTTPTestSupport
import Logging
import MicroHTTP
import ServiceLifecycle
import Synchronization
import TableStore
@testable import TablePagesTestSupport
import Testing
@testable import TablePages
import TablePagesDatabase

/// A site built from features: each adds its pages, probes, entries, services and routes in one
/// call, and the executable builds its site from features alone.
@Suite("A site built from features")
struct SiteFeatureTests {
    /// Serves `site` on an ephemeral port for `body`.
    static func serving<T>(_ site: Site, _ body: (TestConnection) async throws -> T) async throws -> T {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.threads = 2
        var logger = Logger(label: "SiteFeatureTests")
        logger.logLevel = .warning
        let server = Server(configuration: configuration, responder: site.router, logger: logger)
        try server.start()
        do {
            let result = try await body(try await TestConnection(port: server.port))
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    static var quiet: Logger {
        var logger = Logger(label: "SiteFeatureTests")
        logger.logLevel = .warning
        return logger
    }

    @Test("A feature's routes are served, after the site's own, which they never shadow")
    func featureRoutesComeAfterTheSitesOwn() async throws {
        let site = Site(features: [TestPages.registry(), Greeting()], logger: Self.quiet, access: AccessSettings(anonymousWrites: true))
        try await Self.serving(site) { connection in
            let hello = try await connection.request("GET", "/hello")
            #expect(hello.status == 200 && hello.text == "Hello from a feature")
            let health = try await connection.request("GET", "/healthz")
            #expect(health.status == 200, "the site's /healthz wins over the feature's: \(health.text)")
            #expect(try await connection.request("GET", "/pages/items.json").status == 200, "the registry's pages are served")
        }
    }

    @Test("SiteParts adds its pages, readiness probes, index entries and services")
    func partsReachTheSite() async throws {
        let entry = IndexEntry(title: "Elsewhere", summary: "Another page", path: "/elsewhere")
        let parts = SiteParts(pages: TestPages.registry(), readinessProbes: [FailingProbe()], entries: [entry], services: [StartStopService(start: {}, stop: {})])
        let site = Site(features: [parts], logger: Self.quiet)
        #expect(site.services.count == 1)
        #expect(site.pages.page(named: "items") != nil)
        try await Self.serving(site) { connection in
            let ready = try await connection.request("GET", "/readyz")
            #expect(ready.status == 503 && ready.text.contains("the probe failed"), "\(ready.status) \(ready.text)")
            let index = try await connection.request("GET", "/", headers: [("Accept", "application/json")])
            #expect(index.text.contains("/elsewhere"), "\(index.text)")
        }
    }

    @Test("The SQL page adds its routes, the canned queries' pages, their live pages and the index's links")
    func sqlPageFeature() async throws {
        let database = try TestDatabase { db in try db.execute(sql: "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO things VALUES (1, 'one')") }
        defer { database.remove() }
        let runner = try QueryPages.sqliteRunner(path: database.path, limits: QueryLimits())
        let canned = CannedQuery(name: "names", title: "Names", sql: "SELECT name FROM things")
        let site = Site(features: [SQLPage(runner: runner, canned: [canned], onChange: { _ in })], logger: Self.quiet)
        #expect(site.pages.page(named: LiveQueryPages.sqlPageName) != nil, "the live page of visitors' SQL")
        #expect(site.pages.page(named: LiveQueryPages.pageName(of: "names")) != nil, "the canned query's live page")
        try await Self.serving(site) { connection in
            let sql = try await connection.request("GET", "/-/sql.json?sql=select+name+from+things")
            #expect(sql.status == 200 && sql.text.contains("one"), "\(sql.text)")
            let query = try await connection.request("GET", "/-/queries/names.json")
            #expect(query.status == 200 && query.text.contains("one"), "\(query.text)")
            let index = try await connection.request("GET", "/", headers: [("Accept", "application/json")])
            #expect(index.text.contains("/-/sql") && index.text.contains("/-/queries/names"), "\(index.text)")
        }
    }

    @Test("A SQLite database's tables and Datasette's URLs over them, whose canned queries and ?sql= the SQL page answers")
    func databaseTablesAndDatasette() async throws {
        let database = try TestDatabase { db in try db.execute(sql: "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO things VALUES (1, 'one')") }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false, logger: Self.quiet)
        let tables = try DatabaseTables(store: store)
        #expect(tables.tables == ["things"])
        let datasette = try DatasetteAPI(store: store, databaseName: "shop")
        let runner = try QueryPages.sqliteRunner(path: database.path, limits: QueryLimits())
        let canned = CannedQuery(name: "names", sql: "SELECT name FROM things")
        let sqlPage = SQLPage(runner: runner, canned: [canned], datasette: datasette, onChange: { _ in })
        let site = Site(features: [tables, sqlPage], logger: Self.quiet)
        #expect(site.services.count == 1, "the store's watching")
        try await Self.serving(site) { connection in
            #expect(try await connection.request("GET", "/pages/things.json").status == 200)
            let rows = try await connection.request("GET", "/shop/things.json?_shape=array")
            #expect(rows.status == 200 && rows.text.contains("one"), "\(rows.text)")
            let query = try await connection.request("GET", "/shop/names.json?_shape=array")
            #expect(query.status == 200 && query.text.contains("one"), "\(query.text)")
            let sql = try await connection.request("GET", "/shop.json?sql=select+2+as+two")
            #expect(sql.status == 200 && sql.text.contains("two"), "\(sql.text)")
            #expect(try await connection.request("GET", "/-/actor.json").status == 200)
            #expect(try await connection.request("GET", "/readyz").status == 200)
        }
    }

    @Test("StartStopService starts its work when its group runs and stops it when the group shuts down")
    func startStopService() async throws {
        let events = Mutex<[String]>([])
        let service = StartStopService(start: { events.withLock { $0.append("start") } }, stop: { events.withLock { $0.append("stop") } })
        let group = ServiceGroup(services: [service], logger: Self.quiet)
        let running = Task { try await group.run() }
        #expect(await eventually { events.withLock { $0 } == ["start"] })
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(events.withLock { $0 } == ["start", "stop"])
    }

    @Test("The executable builds its site from features and never reaches into a router")
    func executableNeverTouchesARouter() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/tablepages").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.contains("ServeCommand.swift"))
        var buildsFromFeatures = false
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.lowercased().contains("router"), "\(file) mentions a router")
            if text.contains("Site(title: title, features: features") { buildsFromFeatures = true }
        }
        #expect(buildsFromFeatures)
    }
}

/// A feature of one route, and one at a path the site answers itself.
private struct Greeting: SiteFeature {
    func add(to site: inout SiteBuilder) {
        site.addRoutes { router in
            router.immediate(.get, "/hello") { _ in .text("Hello from a feature") }
            router.immediate(.get, "/healthz") { _ in .text("shadowed", status: 418) }
        }
    }
}

/// A readiness probe that always fails.
private struct FailingProbe: ReadinessProbe {
    func probe() throws { throw ProbeFailure() }

    struct ProbeFailure: Error, CustomStringConvertible {
        var description: String { "the probe failed" }
    }
}
