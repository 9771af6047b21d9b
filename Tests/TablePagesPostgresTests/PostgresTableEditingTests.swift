import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
import TablePages
@testable import TablePagesDatabase
import TablePagesPostgres
import TableStore
import TableStorePostgres
import Testing

/// The browser's editing of a PostgreSQL table (DatabaseTableEditing over the writers of
/// `PostgresTablePages`), by two instances of one database: an edit made on an older row on one
/// instance is refused after the other wrote it, and the database's types and rules decide.
@Suite("Editing PostgreSQL tables in the browser", .serialized)
struct PostgresTableEditingTests {
    /// One instance: its router with the editing routes, and a token that may write.
    struct Instance {
        let tables: PostgresTablePages
        let router: Router
        let token: String

        func send(_ method: HTTPMethod, _ path: String, form: String = "", query: [(name: String, value: String)] = []) async -> Response {
            var headers: HTTPHeaders = ["Accept": "application/json", "Authorization": "Bearer " + token]
            if !form.isEmpty { headers["Content-Type"] = "application/x-www-form-urlencoded" }
            return await router.respond(to: Request(
                method: method, path: path, pathSegments: path.split(separator: "/").map(String.init), queryItems: query, headers: headers, body: Array(form.utf8)
            ))
        }
    }

    static func text(_ response: Response) -> String { String(decoding: response.bodyBytes, as: UTF8.self) }

    @Test func staleEditsAcrossInstancesAreRefusedAndTheDatabaseDecides() async throws {
        let cluster = try await OwnThread.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let url = try PostgresURL(cluster.url)
        let logger = {
            var logger = Logger(label: "PostgresTableEditingTests")
            logger.logLevel = .warning
            return logger
        }()
        let setUp = try PostgresStore(url: url)
        var running = [Task { try await setUp.run() }]
        defer {
            setUp.stop()
            for task in running { task.cancel() }
        }
        try await setUp.transactionOnOwnThread { db in
            try db.execute("CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL, price numeric CHECK (price >= 0), added date, fresh boolean)")
            try db.execute("INSERT INTO item (name, price, added, fresh) VALUES ('Tea', 2.5, '2026-01-02', true)")
            try db.execute("CREATE TABLE counted (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL)")
        }
        let credentialsPath = NSTemporaryDirectory() + "tablepages-editing-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: credentialsPath) }
        let credentials = try SQLiteCredentialStore(path: credentialsPath)
        let token = try AccessTokens.create(name: "editor", mayWrite: true, pages: nil, in: credentials)
        var instances: [Instance] = []
        for _ in 0..<2 {
            let tables = try PostgresTablePages(url: url, watch: true, writable: true, logger: logger)
            running.append(Task { try await tables.run() })
            let (pages, editing) = try await OwnThread.run {
                var pages = PageRegistry()
                try tables.register(in: &pages)
                return (pages, try DatabaseEditing(writers: tables.writers))
            }
            let site = Site(title: "Shop", features: [pages, editing], logger: logger, access: AccessSettings(credentials: credentials))
            instances.append(Instance(tables: tables, router: site.router, token: token))
        }
        let (first, second) = (instances[0], instances[1])

        // The insert form describes PostgreSQL's columns, with an editor that fits each.
        let form = Self.text(await first.send(.get, "/pages/item/-/insert"))
        #expect(form.contains("text, NOT NULL</span>"))
        #expect(form.contains("type=\"date\" name=\"v.added\""))
        #expect(form.contains("<option value=\"true\">true (true)</option>"))

        // The first instance's editor is made on the row; the second writes it meanwhile.
        let editor = Self.text(await first.send(.get, "/pages/item/rows/1/-/edit", query: [("column", "name")]))
        let marker = try #require(editor.range(of: "name=\"_version\" value=\""))
        let seen = String(editor[marker.upperBound...].prefix(16))
        let theirs = await second.send(.post, "/pages/item/rows/1/-/update", form: "v.name=Sencha&v.fresh=false&_version=" + seen)
        #expect(theirs.status == 200, "\(Self.text(theirs))")
        let mine = await first.send(.post, "/pages/item/rows/1/-/update", form: "v.name=Matcha&_version=" + seen)
        #expect(mine.status == 409)
        #expect(Self.text(mine).contains(#""name":"Sencha""#))

        // PostgreSQL's rules: a CHECK, a date it cannot read; each a 400 naming the column.
        let check = await first.send(.post, "/pages/item/rows/1/-/update", form: "v.price=-1")
        #expect(check.status == 400 && check.headers["TablePages-Field"] == "v.price", "\(Self.text(check))")
        let date = await first.send(.post, "/pages/item/rows/1/-/update", form: "v.added=someday")
        #expect(date.status == 400 && date.headers["TablePages-Field"] == "v.added", "\(Self.text(date))")

        // Pasted rows, one transaction: all written, typed by PostgreSQL.
        let paste = try #require("name,price,added,fresh\nMug,8,2026-03-04,1\nCup,6.5,,0\n".addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let written = await second.send(.post, "/pages/item/-/insert", form: "_paste=" + paste)
        #expect(written.status == 201, "\(Self.text(written))")
        let rows = try await setUp.transactionOnOwnThread { db in
            try db.rows("SELECT name, price::text, added::text, fresh FROM item ORDER BY id", []).map { row in row.map(EditInput.text(of:)) }
        }
        #expect(rows == [["Sencha", "2.5", "2026-01-02", "false"], ["Mug", "8", "2026-03-04", "true"], ["Cup", "6.5", "", "false"]])

        // An identity column is filled in by the database: rows pasted without it are written.
        #expect(Self.text(await first.send(.get, "/pages/counted/-/insert")).contains("bigint, NOT NULL, filled in by the database"))
        let counted = await first.send(.post, "/pages/counted/-/insert", form: "_paste=name%0AA%0AB")
        #expect(counted.status == 201, "\(Self.text(counted))")
        #expect((try? JSONSerialization.jsonObject(with: Data(counted.bodyBytes)) as? [String: Any])?["ids"] as? [String] == ["1", "2"])
    }
}
