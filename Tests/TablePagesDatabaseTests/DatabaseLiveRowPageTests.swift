import Foundation
import HTTPTestSupport
import MicroHTTP
@testable import TablePagesTestSupport
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// A database row's own page follows the page's variant of that one row: an edit of the row by
/// another process patches it, a delete deletes it, and edits of other rows send it nothing.
@Suite("A database row's own page is live")
struct DatabaseLiveRowPageTests {
    /// The value of the attribute `name` in `html`'s first element that has one.
    private func attribute(_ name: String, in html: String) throws -> String {
        let start = try #require(html.range(of: " \(name)=\""))
        let rest = html[start.upperBound...]
        return String(rest[..<(try #require(rest.firstIndex(of: "\"")))])
    }

    /// The ops of every patch event in `text`, in order.
    private func ops(in text: String) throws -> [[String: Any]] {
        try events(in: text).filter { $0.contains("event: patch") }.flatMap { event in
            let data = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
            return try #require(object["ops"] as? [[String: Any]])
        }
    }

    @Test func aRowPageSeesAnUpdateOfItsRowAloneThenItsDelete() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try await connection.request("GET", "/pages/items/rows/3")
            #expect(page.status == 200)
            // The document follows the variant of row 3, and fetches itself again on a reset.
            let events = try attribute("data-events", in: page.text)
            #expect(events == "/pages/items/events?_row=3")
            #expect(try attribute("data-document", in: page.text) == "/pages/items/rows/3")
            #expect(try attribute("data-row", in: page.text) == "3")
            // The way back goes to the table's own variant, not to the variant of one row.
            #expect(!page.text.contains("href=\"/pages/items?_row"), "\(page.text)")
            let version = try attribute("data-version", in: page.text)

            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream(events + "&format=json&lastEventId=" + version)
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            // Another row first: the row's page re-reads only its row, so it sends nothing for it.
            try database.shell("UPDATE items SET name = 'not this one' WHERE id = 4; UPDATE items SET name = 'renamed' WHERE id = 3")
            var text = try await stream.readStream(until: { $0.contains("renamed") }, timeout: .seconds(5))
            #expect(!text.contains("not this one"))
            let updated = try ops(in: text)
            #expect(updated.map { $0["op"] as? String } == ["replace"], "\(updated)")
            #expect(updated.first?["row"] as? String == "3")

            try database.shell("DELETE FROM items WHERE id = 3")
            text = try await stream.readStream(until: { $0.contains(#""op":"delete""#) }, timeout: .seconds(5))
            let deleted = try ops(in: text).filter { $0["op"] as? String == "delete" }
            #expect(deleted.first?["row"] as? String == "3", "\(deleted)")
            // Loaded again, the deleted row's page is a 404, as it was for a row never there.
            #expect(try await connection.request("GET", "/pages/items/rows/3").status == 404)
        }
    }

    @Test func aRowPageOfARowThatIsNotThereIsA404AndItsJSONComesFromTheRowVariant() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/pages/items/rows/987654").status == 404)
            try database.shell("UPDATE items SET name = 'fresh' WHERE id = 5")
            // A row page read after a write shows the write (its variant re-read, or made anew).
            let json = try await connection.request("GET", "/pages/items/rows/5.json")
            #expect(json.status == 200)
            #expect(json.text.contains("fresh"), "\(json.text)")
        }
    }
}
