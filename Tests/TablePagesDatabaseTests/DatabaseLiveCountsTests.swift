import Foundation
import HTTPTestSupport
import MicroHTTP
@testable import TablePagesTestSupport
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// A database page's live table holds its first rows; writes past them reach subscribers as counts.
@Suite("Database pages live beyond their window")
struct DatabaseLiveCountsTests {
    /// The `data:` of the first event in `text` that contains `marker`, as JSON.
    private func patch(in text: String, containing marker: String) throws -> [[String: Any]] {
        let event = try #require(events(in: text).first { $0.contains(marker) })
        let data = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        return try #require(object["ops"] as? [[String: Any]])
    }

    @Test func aRowInsertedPastTheWindowByAnotherProcessIsOneCountOpAndADeleteLowersIt() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/items/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            // 2,345 rows: the live table holds the first 1,000; id 9999 sorts last.
            try database.shell("INSERT INTO items (id, name) VALUES (9999, 'past the window')")
            var text = try await stream.readStream(until: { $0.contains(#""rowCount":2346"#) }, timeout: .seconds(5))
            let inserted = try patch(in: text, containing: #""rowCount":2346"#)
            // The count op, and the header whose row count changed with it; no row.
            #expect(inserted.map { $0["op"] as? String } == ["section-next", "replace-header"], "\(inserted)")
            #expect((inserted.last?["data"] as? [String: Any])?["title"] as? String == "2,346 rows")
            #expect(inserted.first?["section"] as? String == "all")
            #expect(inserted.first?["remaining"] as? Int == 2346 - LiveSettings().pageRowLimit)
            #expect(inserted.first?["html"] == nil)

            try database.shell("DELETE FROM items WHERE id = 2000")
            text = try await stream.readStream(until: { $0.contains(#""rowCount":2345"#) }, timeout: .seconds(5))
            let deleted = try patch(in: text, containing: #""rowCount":2345"#)
            #expect(deleted.map { $0["op"] as? String } == ["section-next", "replace-header"])

            // A row changed past the window changes no count: nothing is sent for it, and the
            // next write's patch carries only its own change.
            try database.shell("UPDATE items SET name = 'unseen' WHERE id = 2100; UPDATE items SET name = 'seen' WHERE id = 3")
            text = try await stream.readStream(until: { $0.contains(#""name":"seen""#) }, timeout: .seconds(5))
            let changed = try patch(in: text, containing: #""name":"seen""#)
            #expect(changed.map { $0["op"] as? String } == ["replace"])
        }
    }

    @Test func aRowInsertedInsideTheWindowIsPlacedAndCounted() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/items/events?format=json&sort=-id")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            try database.shell("INSERT INTO items (id, name) VALUES (9999, 'newest')")
            let text = try await stream.readStream(until: { $0.contains(#""rowCount":2346"#) }, timeout: .seconds(5))
            let ops = try patch(in: text, containing: #""rowCount":2346"#)
            // The window's last row leaves it, the new one comes first, then the count and the header.
            #expect(ops.map { $0["op"] as? String } == ["delete", "insert", "section-next", "replace-header"])
            #expect(ops[1]["row"] as? String == "9999" && ops[1]["after"] is NSNull)
        }
    }
}
