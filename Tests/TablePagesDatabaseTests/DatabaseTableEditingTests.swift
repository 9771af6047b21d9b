import Foundation
import GRDB
import HTTPTestSupport
import Logging
import MicroHTTP
@testable import TablePages
@testable import TablePagesDatabase
import TableStore
@testable import TablePagesTestSupport
import Testing

/// Editing a user's SQLite table in the browser (`--writable`): who may, the forms, and writes
/// that never silently overwrite one another.
@Suite("Editing database tables")
struct DatabaseTableEditingTests {
    /// A shop: kinds, and items whose columns have a type each, NOT NULL, a CHECK, a default and a
    /// foreign key; and a view.
    static func shop() throws -> TestDatabase {
        try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE kinds (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO kinds VALUES (1, 'tea'), (2, 'coffee');
                CREATE TABLE items (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL CHECK (price >= 0), stock INTEGER NOT NULL DEFAULT 0,
                    note TEXT, added DATE, kind INTEGER REFERENCES kinds(id)
                );
                INSERT INTO items VALUES (1, 'Green tea', 2.5, 10, NULL, '2026-01-02', 1), (2, 'Espresso', 3.0, 5, 'strong', '2026-02-03', 2);
                CREATE VIEW cheap AS SELECT * FROM items WHERE price < 3;
                """)
        }
    }

    /// A site serving `database` writable, with the editing routes, a token that may write, one
    /// that may only read, and a signed-in browser's cookie and CSRF token.
    struct Fixture {
        let router: Router
        let store: Store
        let writers: TableWriters
        let writer: String
        let reader: String
        let cookie: String
        let csrf: String

        func send(
            _ method: HTTPMethod, _ path: String, form: String = "", token: String? = nil, browser: Bool = false, json: Bool = true, query: [(name: String, value: String)] = []
        ) async -> Response {
            var headers: HTTPHeaders = ["Accept": json ? "application/json" : "text/html"]
            if !form.isEmpty { headers["Content-Type"] = "application/x-www-form-urlencoded" }
            if let token { headers["Authorization"] = "Bearer " + token }
            let body = browser && method == .post ? (form.isEmpty ? "" : form + "&") + "_csrf=" + csrf : form
            if browser && !body.isEmpty { headers["Content-Type"] = "application/x-www-form-urlencoded" }
            let request = Request(
                method: method, path: path, pathSegments: path.split(separator: "/").map(String.init), queryItems: query,
                headers: headers, cookies: browser ? [SessionCookie.name: cookie] : [:], body: Array(body.utf8)
            )
            return await router.respond(to: request)
        }

        /// The row `id` of `items` as the database holds it now.
        func item(_ id: Int) throws -> [String: DatabaseValue]? {
            try store.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM items WHERE id = ?", arguments: [id]).map { row in
                    Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) })
                }
            }
        }

        func count() throws -> Int {
            try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items") ?? 0 }
        }
    }

    /// Runs `body` on a site serving `database` (by default ``shop()``), keeping an audit trail
    /// in a file of its own when `audited` (what the browser's undo needs).
    static func withFixture(
        maxPastedRows: Int = DatabaseTableEditing.defaultMaxPastedRows, database makeDatabase: () throws -> TestDatabase = shop, audited: Bool = false,
        _ body: (Fixture) async throws -> Void
    ) async throws {
        let database = try makeDatabase()
        let auditPath = NSTemporaryDirectory() + "tablepages-editing-audit-\(UUID().uuidString).sqlite"
        defer {
            database.remove()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: auditPath + suffix) }
        }
        var logger = Logger(label: "DatabaseTableEditingTests")
        logger.logLevel = .warning
        let store = try Store.openExisting(path: database.path, writable: true, logger: logger)
        var pages = PageRegistry()
        let audit = audited ? try DatabaseAuditTrail.sqlite(path: auditPath) : nil
        let writers = try DatabaseTablePages.registerWritable(store: store, in: &pages, audit: audit, logger: logger)
        let credentials = MemoryCredentialStore()
        let writer = try AccessTokens.create(name: "editor", mayWrite: true, pages: nil, in: credentials)
        let reader = try AccessTokens.create(name: "reader", mayWrite: false, pages: nil, in: credentials)
        let site = Site(pages: pages, logger: logger, access: AccessSettings(credentials: credentials))
        var router = site.router
        var editing = try DatabaseTableEditing(writers: writers, pages: pages, access: site.access, siteTitle: "Shop", logger: logger)
        editing.maxPastedRows = maxPastedRows
        editing.register(on: &router)
        let session = SessionCookie.new()
        try await body(Fixture(
            router: router, store: store, writers: writers, writer: writer, reader: reader,
            cookie: session.value(signedWith: site.access.secret), csrf: site.access.secret.csrfToken(forSession: session.sessionID)
        ))
    }

    static func text(_ response: Response) -> String { String(decoding: response.bodyBytes, as: UTF8.self) }

    static func json(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.bodyBytes)) as? [String: Any])
    }

    /// The message of a JSON error answer (`{"error":{"message":…}}`).
    static func errorMessage(_ response: Response) throws -> String {
        try #require((try json(response)["error"] as? [String: Any])?["message"] as? String)
    }

    /// The version token in a form's HTML.
    static func version(in html: String) throws -> String {
        let marker = "name=\"_version\" value=\""
        let start = try #require(html.range(of: marker)).upperBound
        return String(html[start...].prefix(16))
    }

    @Test("Anonymous clients get 401, a read-only token 403, from every write URL and form; nothing changes")
    func whoMayEdit() async throws {
        try await Self.withFixture { site in
            let writes: [(HTTPMethod, String, String)] = [
                (.get, "/pages/items/-/insert", ""), (.post, "/pages/items/-/insert", "v.name=Mug"),
                (.get, "/pages/items/rows/1/-/edit", ""), (.post, "/pages/items/rows/1/-/update", "v.name=Mug"), (.post, "/pages/items/rows/1/-/delete", ""),
            ]
            for (method, path, form) in writes {
                #expect(await site.send(method, path, form: form).status == 401, "\(method) \(path)")
                #expect(await site.send(method, path, form: form, token: site.reader).status == 403, "\(method) \(path)")
            }
            // A view is read-only for everyone, and says why.
            let view = await site.send(.post, "/pages/cheap/-/insert", form: "v.name=Mug", token: site.writer)
            #expect(view.status == 403)
            let (count, name) = (try site.count(), try site.item(1)?["name"])
            #expect(count == 2 && name == "Green tea".databaseValue)
        }
    }

    @Test("The table page links the insert form, and a row's page its edit form, only for a viewer who may write")
    func controlsOnlyForWriters() async throws {
        try await Self.withFixture { site in
            let anonymous = Self.text(await site.send(.get, "/pages/items", json: false))
            #expect(anonymous.contains("tk-row") && !anonymous.contains("tp-add-row"))
            let signedIn = Self.text(await site.send(.get, "/pages/items", browser: true, json: false))
            #expect(signedIn.contains("<a class=\"tp-add-row\" href=\"/pages/items/-/insert\">Add a row</a>"))
            let row = Self.text(await site.send(.get, "/pages/items/rows/1", browser: true, json: false))
            #expect(row.contains("href=\"/pages/items/rows/1/-/edit\">Edit this row</a>"))
            #expect(!Self.text(await site.send(.get, "/pages/items/rows/1", json: false)).contains("Edit this row"))
            let view = Self.text(await site.send(.get, "/pages/cheap", browser: true, json: false))
            #expect(!view.contains("tp-add-row"))
            #expect(view.contains("is a view: its rows are computed from other tables and are read-only."), "a view says on its page that it is read-only")
        }
    }

    @Test("The insert form shows each column's type, NOT NULL and default, and a foreign key's choices by label")
    func insertFormDescribesColumns() async throws {
        try await Self.withFixture { site in
            let response = await site.send(.get, "/pages/items/-/insert", browser: true, json: false)
            #expect(response.status == 200)
            let html = Self.text(response)
            #expect(html.contains("INTEGER, NOT NULL, default 0"))
            #expect(html.contains("TEXT, NOT NULL</span>"))
            #expect(html.contains("<input id=\"tp-edit-5\" type=\"date\" name=\"v.added\""))
            #expect(html.contains("<option value=\"2\">coffee (2)</option>"))
            #expect(html.contains("name=\"null\" value=\"note\""))
            #expect(!html.contains("name=\"null\" value=\"name\""), "a NOT NULL column has no NULL choice")
            #expect(html.contains("name=\"_csrf\" value=\"" + site.csrf + "\""))
        }
    }

    @Test("An edit made on the row as it is is written; one made on an older row is refused with 409 and the row now; Keep mine writes it")
    func staleEditsAreRefused() async throws {
        try await Self.withFixture { site in
            let editor = Self.text(await site.send(.get, "/pages/items/rows/1/-/edit", browser: true, json: false, query: [("column", "name")]))
            #expect(editor.contains("class=\"tp-cell-editor\""))
            let seen = try Self.version(in: editor)
            // Someone else changes the row meanwhile.
            let theirs = await site.send(.post, "/pages/items/rows/1/-/update", form: "v.name=Sencha&_version=" + seen, token: site.writer)
            #expect(theirs.status == 200, "\(Self.text(theirs))")
            let mine = await site.send(.post, "/pages/items/rows/1/-/update", form: "v.name=Matcha&_version=" + seen, browser: true)
            #expect(mine.status == 409)
            let conflict = try Self.json(mine)
            #expect((conflict["current"] as? [String: Any])?["name"] as? String == "Sencha")
            #expect(try site.item(1)?["name"] == "Sencha".databaseValue)
            let now = try #require(conflict["version"] as? String)
            let kept = await site.send(.post, "/pages/items/rows/1/-/update", form: "v.name=Matcha&_version=" + now, browser: true)
            #expect(kept.status == 200)
            #expect(try site.item(1)?["name"] == "Matcha".databaseValue)
            // Without a script, a stale edit is answered with both values and the two choices.
            let page = await site.send(.post, "/pages/items/rows/1/-/update", form: "v.name=Oolong&_version=" + seen, browser: true, json: false)
            #expect(page.status == 409)
            #expect(Self.text(page).contains("<td>Matcha</td><td>Oolong</td>"))
            #expect(Self.text(page).contains("Keep mine") && Self.text(page).contains("Take theirs"))
        }
    }

    @Test("A row's form posted without a script writes only the columns the person changed: a text box's line breaks, sent back as CR LF, change nothing")
    func untouchedColumnsOfAPostedFormAreNotWritten() async throws {
        try await Self.withFixture { site in
            try site.store.write { db in try db.execute(sql: "UPDATE items SET note = ? WHERE id = 2", arguments: ["line one\nline two\rthree"]) }
            let form = Self.text(await site.send(.get, "/pages/items/rows/2/-/edit", browser: true, json: false))
            let seen = try Self.version(in: form)
            // What a browser sends for the untouched box (its breaks as CR LF), beside a changed stock.
            let posted = await site.send(
                .post, "/pages/items/rows/2/-/update", form: "v.name=Espresso&v.price=3.0&v.stock=6&v.note=line%20one%0D%0Aline%20two%0D%0Athree&_version=" + seen,
                browser: true, json: false
            )
            #expect(posted.status == 303, "\(Self.text(posted))")
            let row = try #require(try site.item(2))
            #expect(row["note"] == "line one\nline two\rthree".databaseValue)
            #expect(row["stock"] == 6.databaseValue)
            // A script's answer, or a changed box, is written as sent.
            let typed = await site.send(.post, "/pages/items/rows/2/-/update", form: "v.note=new%0D%0Atext", token: site.writer)
            #expect(typed.status == 200)
            #expect(try site.item(2)?["note"] == "new\r\ntext".databaseValue)
        }
    }

    @Test("Values are typed by their column, NULL is its own choice, and a value the database refuses is a 400 naming the column")
    func typesNullsAndRefusals() async throws {
        try await Self.withFixture { site in
            let ok = await site.send(.post, "/pages/items/rows/2/-/update", form: "v.price=4.25&v.stock=7&null=note&v.kind=1", token: site.writer)
            #expect(ok.status == 200, "\(Self.text(ok))")
            let row = try #require(try site.item(2))
            #expect(row["price"] == 4.25.databaseValue && row["stock"] == 7.databaseValue && row["note"] == .null && row["kind"] == 1.databaseValue)
            let check = await site.send(.post, "/pages/items/rows/2/-/update", form: "v.price=-1", token: site.writer)
            #expect(check.status == 400)
            #expect(check.headers["TablePages-Field"] == "v.price")
            let empty = await site.send(.post, "/pages/items/rows/2/-/update", form: "v.price=-1", browser: true, json: false)
            #expect(empty.status == 400)
            #expect(Self.text(empty).contains("class=\"tp-edit-problem\" id=\"tp-edit-2-problem\" role=\"alert\">"), "the message is beside the price")
            #expect(try site.item(2)?["price"] == 4.25.databaseValue)
        }
    }

    @Test("Deleting a row changed since is a 409; deleting it as seen answers its values, which an undo inserts again")
    func deleteAndUndo() async throws {
        try await Self.withFixture { site in
            let seen = try Self.version(in: Self.text(await site.send(.get, "/pages/items/rows/2/-/edit", browser: true, json: false)))
            _ = await site.send(.post, "/pages/items/rows/2/-/update", form: "v.stock=4", token: site.writer)
            #expect(await site.send(.post, "/pages/items/rows/2/-/delete", form: "_version=" + seen, browser: true).status == 409)
            #expect(try site.count() == 2)
            let now = try Self.version(in: Self.text(await site.send(.get, "/pages/items/rows/2/-/edit", browser: true, json: false)))
            let deleted = await site.send(.post, "/pages/items/rows/2/-/delete", form: "_version=" + now, browser: true)
            #expect(deleted.status == 200)
            #expect(try site.count() == 1)
            let values = try #require(try Self.json(deleted)["deleted"] as? [String: Any])
            #expect(values["name"] as? String == "Espresso" && values["stock"] as? String == "4")
            var undo = URLComponents()
            undo.queryItems = values.map { name, value in value is NSNull ? URLQueryItem(name: "null", value: name) : URLQueryItem(name: "v." + name, value: value as? String) }
            let inserted = await site.send(.post, "/pages/items/-/insert", form: undo.percentEncodedQuery ?? "", browser: true)
            #expect(inserted.status == 201, "\(Self.text(inserted))")
            #expect(try site.item(2)?["name"] == "Espresso".databaseValue)
        }
    }

    @Test("Rows pasted from a spreadsheet are previewed without a write, then written in one transaction; a bad row writes none")
    func pastedRows() async throws {
        try await Self.withFixture { site in
            let paste = "name\tprice\tkind\nMug\t8\t\nCup\t6.5\t2\nSaucer\t\t1\n"
            let encoded = try #require(paste.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let preview = await site.send(.post, "/pages/items/-/insert", form: "_preview=1&_paste=" + encoded, browser: true)
            #expect(preview.status == 200)
            #expect((try Self.json(preview)["rows"] as? [Any])?.count == 3)
            #expect(try site.count() == 2)
            let written = await site.send(.post, "/pages/items/-/insert", form: "_paste=" + encoded, browser: true)
            #expect(written.status == 201, "\(Self.text(written))")
            #expect((try Self.json(written)["ids"] as? [String]) == ["3", "4", "5"])
            #expect(try site.item(4)?["price"] == 6.5.databaseValue)
            let bad = try #require("name,price\nBowl,1\nPlate,-2\n".addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let refused = await site.send(.post, "/pages/items/-/insert", form: "_paste=" + bad, browser: true)
            #expect(refused.status == 400)
            #expect(Self.text(refused).contains("price"), "\(Self.text(refused))")
            #expect(try site.count() == 5, "all or nothing")
        }
    }

    @Test("A pasted batch the database refuses names the line (as counted in the pasted text), its first cells and the column, beside the preview")
    func refusedPasteNamesTheLine() async throws {
        try await Self.withFixture { site in
            // The blank line and the quoted line break count, as the person sees the lines.
            let bad = "name,price\nBowl,1\n\n\"Big\nplate\",-2\nCup,3\n"
            let encoded = try #require(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let preview = await site.send(.post, "/pages/items/-/insert", form: "_preview=1&_paste=" + encoded, browser: true)
            #expect((try Self.json(preview)["lines"] as? [Int]) == [2, 4, 6], "\(Self.text(preview))")
            let refused = await site.send(.post, "/pages/items/-/insert", form: "_paste=" + encoded, browser: true)
            #expect(refused.status == 400)
            #expect(refused.headers["TablePages-Line"] == "4" && refused.headers["TablePages-Field"] == "_paste")
            let message = try Self.errorMessage(refused)
            #expect(message.hasPrefix("Line 4 (\u{201C}Big\nplate\u{201D}, \u{201C}-2\u{201D}), column \u{201C}price\u{201D}: "), "\(message)")
            #expect(message.hasSuffix("; none of the 3 rows was written."), "\(message)")
            #expect(try site.count() == 2, "all or nothing")

            // Without a script: the preview again, the line marked, the words beside it.
            let page = Self.text(await site.send(.post, "/pages/items/-/insert", form: "_paste=" + encoded, browser: true, json: false))
            #expect(page.contains("<tr data-line=\"4\" class=\"tp-paste-refused\"><th scope=\"row\">4</th>"), "\(page)")
            #expect(page.contains("</table></div><p class=\"tp-edit-problem\" role=\"alert\">Line 4 ("), "\(page)")

            // A key taken by an earlier line of the same paste: the later line is named.
            let twice = try #require("id,name\n10,A\n10,B\n".addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let taken = await site.send(.post, "/pages/items/-/insert", form: "_paste=" + twice, browser: true)
            #expect(taken.status == 400 && taken.headers["TablePages-Line"] == "3", "\(Self.text(taken))")
            #expect(try Self.errorMessage(taken).hasPrefix("Line 3 (\u{201C}10\u{201D}, \u{201C}B\u{201D}), column \u{201C}id\u{201D}: "), "\(Self.text(taken))")
            #expect(try site.count() == 2)
        }
    }

    @Test("A paste of more rows than --max-pasted-rows is refused with the count, and writes none")
    func pastesAreBounded() async throws {
        try await Self.withFixture(maxPastedRows: 2) { site in
            let paste = try #require("name,price\nA,1\nB,2\nC,3\n".addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let refused = await site.send(.post, "/pages/items/-/insert", form: "_paste=" + paste, browser: true)
            #expect(refused.status == 400)
            #expect(Self.text(refused).contains("3 rows were pasted; at most 2"), "\(Self.text(refused))")
            #expect(try site.count() == 2, "nothing written")
            let two = try #require("name,price\nA,1\nB,2\n".addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            #expect(await site.send(.post, "/pages/items/-/insert", form: "_paste=" + two, browser: true).status == 201)
        }
    }
}
