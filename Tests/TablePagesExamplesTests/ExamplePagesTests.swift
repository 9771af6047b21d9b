import Foundation
import GRDB
import HTTPTestSupport
import TableKit
import TablePages
import TablePagesExamples
@testable import TablePagesTestSupport
import TableStore
import Testing

@Suite("The example pages over SQLite")
struct ExamplePagesTests {
    static let pages = [
        "/pages/products", "/pages/products?layout=sections", "/pages/product?id=3", "/pages/todo",
        "/pages/people", "/pages/gallery", "/pages/destination", "/pages/checklist",
    ]

    @Test(arguments: pages)
    func everyExamplePageIsServedAsHTMLAndAsJSON(path: String) async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let html = try await client.request("GET", path)
                #expect(html.status == 200)
                #expect(html.header("Content-Type")?.hasPrefix("text/html") == true)
                #expect(html.text.contains("data-row=\""))
                let json = try await client.request("GET", path, headers: [("Accept", "application/json")])
                #expect(json.status == 200)
                #expect(try !rowIDs(inPageJSON: json.text).isEmpty)
            }
        }
    }

    @Test func aDetailPageIsHeadedByWhatItShowsAndFollowsARename() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let name = try #require(await DatabaseQueue(path: file.path).read { try String.fetchOne($0, sql: "SELECT name FROM product WHERE id = 3") })
                let before = try await client.request("GET", "/pages/product.json?id=3")
                #expect(try pageTitle(before.text) == name)
                #expect(try await client.request("GET", "/pages/products.json").text.contains(#""title":"Products""#), "a root without a title of its own keeps the page's")
                try await DatabaseQueue(path: file.path).write { try $0.execute(sql: "UPDATE product SET name = 'Renamed <3>' WHERE id = 3") }
                var title: String?
                for _ in 0..<50 where title != "Renamed <3>" {
                    try await Task.sleep(for: .milliseconds(40))
                    title = try pageTitle(try await client.request("GET", "/pages/product.json?id=3").text)
                }
                #expect(title == "Renamed <3>")
                #expect(try await client.request("GET", "/pages/product?id=3").text.contains("Renamed &lt;3&gt;"))
            }
        }
    }

    private func pageTitle(_ json: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["title"] as? String
    }

    @Test func listAndSectionsLayoutsShowTheSameRows() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let list = try PageJSON.decode(try await client.request("GET", "/pages/products.json?layout=list").text)
                let sections = try PageJSON.decode(try await client.request("GET", "/pages/products.json?layout=sections").text)
                #expect(list.sections.count == 1)
                #expect(sections.sections.map(\.id) == ["Brewing", "Coffee", "Cups", "Snacks", "Tea"])
                let listIDs = list.sections.flatMap { $0.rows.map(\.id) }
                #expect(listIDs.count == 30)
                #expect(Set(listIDs) == Set(sections.sections.flatMap { $0.rows.map(\.id) }))
                #expect(listIDs == sections.sections.flatMap { $0.rows.map(\.id) }, "both order by category, then name")
            }
        }
    }

    @Test func aPriceChangedInTheDatabaseReachesSubscribersOfBothLayoutsWithinASecond() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let list = try await TestConnection(port: server.port)
                let sections = try await TestConnection(port: server.port)
                _ = try await list.openStream("/pages/products/events?format=json")
                _ = try await sections.openStream("/pages/products/events?layout=sections&format=json")
                _ = try await list.readStream(until: { $0.contains("retry:") })
                _ = try await sections.readStream(until: { $0.contains("retry:") })

                // Another writer: a connection of its own, as a script or another process would use.
                let other = try DatabaseQueue(path: file.path)
                let started = ContinuousClock.now
                try await other.write { try $0.execute(sql: "UPDATE product SET priceCents = 9999 WHERE id = 3") }
                for stream in [list, sections] {
                    let text = try await stream.readStream(until: { $0.contains("€99.99") }, timeout: .seconds(1))
                    let event = try #require(events(in: text).first)
                    #expect(operations(in: event) == ["replace 3"])
                }
                #expect(ContinuousClock.now - started < .seconds(1))
            }
        }
    }

    @Test func aProductRowIsALinkToItsDetailPage() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                for layout in ["list", "sections"] {
                    let page = try await client.request("GET", "/pages/products?layout=\(layout)")
                    #expect(page.text.contains(#"<a class="tk-cell tk-link" href="/pages/product?id=3">"#), "layout \(layout)")
                    #expect(!page.text.contains("/pages/products/rows/3/select"), "a link, not a select form")
                }
                let json = try await client.request("GET", "/pages/products.json")
                #expect(json.text.contains(#""link":"/pages/product?id=3""#))
                // Selecting leads nowhere any more: the row is a link, and the page is read-only.
                #expect(try await client.request("POST", "/pages/products/rows/3/select").status == 403)

                let detail = try PageJSON.decode(try await client.request("GET", "/pages/product.json?id=3").text)
                #expect(detail.row("name")?.detail == "Decaf Colombia, 250 g")
                #expect(detail.row("price")?.detail == "€8.90")
                // Its "All products" row is a link back.
                let detailPage = try await client.request("GET", "/pages/product?id=3")
                #expect(detailPage.text.contains(#"<a class="tk-cell tk-link" href="/pages/products">"#))
                #expect(try await client.request("POST", "/pages/product/rows/price/select?id=3").status == 403)
            }
        }
    }

    @Test func aProductAddedWhileTheServerRunsHasItsDetailPage() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, store in
                try store.write { db in
                    try db.execute(sql: "INSERT INTO product (id, name, category, priceCents, stock, summary) VALUES (31, 'Cold brew', 'Coffee', 450, 3, 'New')")
                }
                let client = try await TestConnection(port: server.port)
                let detail = try await client.request("GET", "/pages/product.json?id=31")
                #expect(detail.status == 200)
                #expect(detail.text.contains("Cold brew"))
                // Well formed but naming no product: 404, found on a database lane; malformed: 400,
                // found without the database on the event thread.
                for (id, status) in [("9999", 404), ("abc", 400), ("", 400)] {
                    let missing = try await client.request("GET", "/pages/product.json?id=\(id)")
                    #expect(missing.status == status, "id=\(id)")
                    #expect(missing.text.contains("id must name a product"))
                }
            }
        }
    }

    @Test func togglingATodoReplacesExactlyThatRowAndTheProgressSummary() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let stream = try await TestConnection(port: server.port)
                _ = try await stream.openStream("/pages/todo/events?format=json")
                _ = try await stream.readStream(until: { $0.contains("retry:") })
                let client = try await TestConnection(port: server.port)
                #expect(try await client.request("POST", "/pages/todo/rows/todo-3/select").status == 200)
                let event = try #require(events(in: try await stream.readStream(until: { events(in: $0).count == 1 })).first)
                #expect(Set(operations(in: event)) == ["replace todo-3", "replace progress"])
                #expect(operations(in: event).count == 2)
                #expect(event.contains(#""subtitle":"done""#))
                #expect(event.contains(#""title":"3 of 8 done""#))
            }
        }
    }

    @Test func aFormActionRedirectsToThePageItChangedAndScriptsGetItsVersion() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let form: [(String, String)] = [("Content-Type", "application/x-www-form-urlencoded")]
                for round in 1...5 {
                    // Warm the render cache, then toggle without JavaScript and follow the redirect.
                    let before = try await client.request("GET", "/pages/todo.json").text
                    let answer = try await client.request("POST", "/pages/todo/rows/todo-4/select", headers: form)
                    #expect(answer.status == 303)
                    let after = try await client.request("GET", "/pages/todo.json").text
                    #expect(after != before, "round \(round): the page after the redirect must show the toggle")
                }
                let script = try await client.request("POST", "/pages/todo/rows/todo-4/select", headers: [("Accept", "application/json")])
                let version = try await pageVersion(client, "/pages/todo.json")
                #expect(script.text == #"{"ok":true,"version":\#(version)}"#)
            }
        }
    }

    @Test func insertsThatChangeNothingAreRefused() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let json: [(String, String)] = [("Content-Type", "application/json")]
                let summary = try await client.request("POST", "/pages/todo/sections/summary/rows", headers: json, body: Array(#"{"title":"x"}"#.utf8))
                #expect(summary.status == 409)
                #expect(summary.text.contains("Nothing was added"))
                // A blank title is the visitor's to fix: a 400 that says what to type, from the
                // list's section or the form's, as JSON or as a form.
                let form: [(String, String)] = [("Content-Type", "application/x-www-form-urlencoded")]
                for (path, headers, body) in [
                    ("/pages/todo/sections/todos/rows", json, #"{"title":"   "}"#), ("/pages/todo/sections/add/rows", form, "title=+%09"),
                    ("/pages/checklist/sections/add/rows", form, "title="),
                ] {
                    let answer = try await client.request("POST", path, headers: headers, body: Array(body.utf8))
                    #expect(answer.status == 400, "\(path) \(body)")
                    #expect(answer.text.contains("needs a title. Type what it is in the box, then press Add."), "\(path): \(answer.text)")
                }
            }
        }
    }

    @Test func aTitleOverTheLimitIsRefusedSayingTheLimitAndOneAtItIsKeptWhole() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, store in
                let client = try await TestConnection(port: server.port)
                let json: [(String, String)] = [("Content-Type", "application/json")]
                let form: [(String, String)] = [("Content-Type", "application/x-www-form-urlencoded")]
                // 201 thumbs: 201 characters, but 402 UTF-16 code units, which a browser's maxlength counts.
                let tooLong = String(repeating: "👍", count: 201)
                let encoded = try #require(tooLong.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                for (path, headers, body) in [
                    ("/pages/todo/sections/todos/rows", json, #"{"title":"\#(tooLong)"}"#), ("/pages/todo/sections/add/rows", form, "title=\(encoded)"),
                    ("/pages/checklist/sections/add/rows", form, "title=\(encoded)"), ("/pages/todo/rows/todo-2/actions/rename", form, "title=\(encoded)"),
                ] {
                    let answer = try await client.request("POST", path, headers: headers, body: Array(body.utf8))
                    #expect(answer.status == 400, "\(path)")
                    #expect(answer.text.contains("may have at most 400 characters; this one has 402."), "\(path): \(answer.text)")
                }
                let titles = try store.read { db in try String.fetchAll(db, sql: "SELECT title FROM todo") }
                #expect(!titles.contains { $0.hasPrefix("👍") }, "nothing was added or renamed, cut or whole")
                let atTheLimit = String(repeating: "👍", count: 200)
                let added = try await client.request("POST", "/pages/todo/sections/todos/rows", headers: json, body: Array(#"{"title":"\#(atTheLimit)"}"#.utf8))
                #expect(added.status == 201)
                #expect(try store.read { db in try String.fetchAll(db, sql: "SELECT title FROM todo") }.contains(atTheLimit))
            }
        }
    }

    @Test func theLimitIsSaidAndTheWordsAboutTickingShowOnlyToWriters() async throws {
        try await withExampleDatabase { file in
            for anonymousWrites in [true, false] {
                try await withExampleSite(file: file, access: AccessSettings(anonymousWrites: anonymousWrites)) { server, _ in
                    let client = try await TestConnection(port: server.port)
                    for path in ["/pages/todo", "/pages/checklist"] {
                        let page = try await client.request("GET", path).text
                        #expect(page.contains("tick it") == anonymousWrites, "\(path), anonymous writes \(anonymousWrites)")
                        #expect(page.contains(#"maxlength="400""#) == anonymousWrites)
                        #expect(page.contains("At most 400 characters") == anonymousWrites)
                        let document = try await client.request("GET", path, headers: [("Accept", "application/json")]).text
                        #expect(document.contains("tick it") == anonymousWrites, "\(path).json, anonymous writes \(anonymousWrites)")
                    }
                }
            }
        }
    }

    @Test func createRenameMoveAndDeleteArePersisted() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let json = [("Accept", "application/json"), ("Content-Type", "application/json")]
                let created = try await client.request("POST", "/pages/todo/sections/todos/rows", headers: json, body: Array(#"{"title":"Pack the tent"}"#.utf8))
                #expect(created.status == 201)
                // The answer names the new row, and Location leads to its JSON.
                #expect(created.text.contains(#""id":"todo-9""#))
                #expect(created.header("Location") == "/pages/todo/rows/todo-9.json")
                let row = try await client.request("GET", try #require(created.header("Location")))
                #expect(row.text.contains(#""title":"Pack the tent","subtitle":"to do","done":false"#))
                let renamed = try await client.request("POST", "/pages/todo/rows/todo-2/actions/rename", headers: json, body: Array(#"{"title":"Renew both passports"}"#.utf8))
                #expect(renamed.status == 200)
                let moved = try await client.request("POST", "/pages/todo/rows/todo-8/move", headers: json, body: Array(#"{"section":"todos","before":"todo-1"}"#.utf8))
                #expect(moved.status == 200)
                #expect(try await client.request("DELETE", "/pages/todo/rows/todo-3", headers: json).status == 200)
                // The page follows the store.
                #expect(await eventually {
                    let page = try? await client.request("GET", "/pages/todo.json").text
                    return page.map { $0.contains("Pack the tent") && $0.contains("Renew both passports") && !$0.contains(#""todo-3""#) } ?? false
                })
            }
            // Another process opening the same file sees every change.
            let reopened = try ExamplePages.open(at: file.path)
            let titles = try reopened.read { db in try String.fetchAll(db, sql: "SELECT title FROM todo ORDER BY position, id") }
            #expect(titles == [
                "Send the birthday card", "Book the train to Ljubljana", "Renew both passports", "Water the plants",
                "Write the release notes", "Call the plumber", "Back up the laptop", "Pack the tent",
            ])
        }
    }

    @Test func thePagesShowTheSameDataAfterARestart() async throws {
        try await withExampleDatabase { file in
            let before = try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                _ = try await client.request("POST", "/pages/todo/rows/todo-5/select")
                _ = try await client.request("POST", "/pages/todo/sections/todos/rows", headers: [("Content-Type", "application/json")], body: Array(#"{"title":"Fix the bike"}"#.utf8))
                _ = try await client.request("POST", "/pages/destination/rows/load-more/select")
                #expect(await eventually {
                    let page = (try? await client.request("GET", "/pages/todo.json").text) ?? ""
                    return page.contains("Fix the bike") && page.contains("3 of 9 done")
                })
                return (try await client.request("GET", "/pages/todo.json").text, try await client.request("GET", "/pages/destination.json").text)
            }
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let todo = try PageJSON.decode(try await client.request("GET", "/pages/todo.json").text)
                #expect(todo.sections.map { $0.rows.map(\.id) } == (try PageJSON.decode(before.0)).sections.map { $0.rows.map(\.id) })
                #expect(todo.row("progress")?.title == "3 of 9 done")
                let destination = try await client.request("GET", "/pages/destination.json").text
                #expect(try rowIDs(inPageJSON: destination) == (try rowIDs(inPageJSON: before.1)))
                #expect(try rowIDs(inPageJSON: destination).filter { $0.hasPrefix("review-") }.count == 10)
            }
        }
    }

    @Test func theGalleryIsServedAtOnceThenPushesEachRowWithItsRealHeight() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let page = try PageJSON.decode(try await client.request("GET", "/pages/gallery.json").text)
                let rows = page.sections.flatMap(\.rows)
                #expect(rows.count == 12)
                // Served without waiting: the thumbnails take 200 ms to 1.5 s each, so (but for a
                // stalled machine) none is ready yet and every row has only its estimate.
                let pending = rows.filter { $0.height == nil }
                #expect(pending.count >= 6)
                #expect(pending.allSatisfy { $0.estimatedHeight == 252 })

                let stream = try await TestConnection(port: server.port)
                _ = try await stream.openStream("/pages/gallery/events?format=json&lastEventId=\(page.version)")
                let text = try await stream.readStream(until: { rowData(inEvents: $0).count >= pending.count }, timeout: .seconds(10))
                let updates = rowData(inEvents: text)
                #expect(Set(updates.compactMap { $0["id"] as? String }) == Set(pending.map(\.id)))
                #expect(updates.allSatisfy { $0["height"] is Double })
                #expect(events(in: text).count > 1, "thumbnails arrive as they are ready, not all at the end")
                // Alpine lake is 1200×1600: fitted into 320×240 it is 180×240, plus the caption.
                let row = try await client.request("GET", "/pages/gallery/rows/image-2", headers: [("Accept", "application/json")])
                let alpine = try #require(try JSONSerialization.jsonObject(with: Data(row.text.utf8)) as? [String: Any])
                #expect(alpine["title"] as? String == "Alpine lake")
                #expect(alpine["height"] as? Double == 312)
                #expect(alpine["estimatedHeight"] == nil)
                let image = try #require(alpine["image"] as? [String: Any])
                #expect(image["url"] as? String == "/public/images/gallery/alpine-lake.svg")
                #expect(image["width"] as? Int == 180 && image["height"] as? Int == 240)
                #expect(try await client.request("GET", "/public/images/gallery/alpine-lake.svg").status == 200)
            }
        }
    }

    @Test func loadMoreAppendsTheNextReviewsLive() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let page = try PageJSON.decode(try await client.request("GET", "/pages/destination.json").text)
                #expect(page.sections.map(\.id) == ["header", "map", "contact", "rating", "reviews"])
                let reviews = try #require(page.sections.last).rows.map(\.id)
                #expect(reviews == ["review-1", "review-2", "review-3", "review-4", "review-5", "load-more"])

                let stream = try await TestConnection(port: server.port)
                _ = try await stream.openStream("/pages/destination/events?format=json&lastEventId=\(page.version)")
                #expect(try await client.request("POST", "/pages/destination/rows/load-more/select").status == 200)
                let event = try #require(events(in: try await stream.readStream(until: { events(in: $0).count == 1 })).first)
                let inserted = operations(in: event).filter { $0.hasPrefix("insert ") }
                #expect(inserted == (6...10).map { "insert review-\($0)" })
                #expect(operations(in: event).filter { !$0.hasPrefix("insert ") } == ["replace load-more"])
                #expect(event.contains("(15 not shown)"))
                let after = try #require(try PageJSON.decode(try await client.request("GET", "/pages/destination.json").text).sections.last).rows.map(\.id)
                #expect(after == (1...10).map { "review-\($0)" } + ["load-more"])
            }
        }
    }

    @Test func peopleAndPetsShareOneCellKindAndOnlyPetsHaveImages() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let user = try await client.request("GET", "/pages/people/rows/user-1").text
                let pet = try await client.request("GET", "/pages/people/rows/pet-1").text
                #expect(user.contains(#"data-kind="subtitle""#) && pet.contains(#"data-kind="subtitle""#))
                #expect(!user.contains("<img"))
                #expect(pet.contains(#"<img class="tk-image" src="/public/images/pets/biscuit.svg""#))
                #expect(pet.contains(#"data-field="owner">Ada Moreau"#) && pet.contains(#"data-field="weight">11.2 kg"#))
            }
        }
    }
}
