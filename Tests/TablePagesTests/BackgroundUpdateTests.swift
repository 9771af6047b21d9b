import Foundation
import HTTPTestSupport
import MicroHTTP
import TableKit
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

@Suite("Changes from background tasks, and where a page's versions start")
struct BackgroundUpdateTests {
    @Test func aDetachedTaskUpdatingARowReachesASubscriberAsExactlyOnePatch() async throws {
        let drop = UpdaterDrop()
        try await withSite(pages: BlockingPages.registry(BackgroundPages.counters(drop: drop))) { server, _ in
            let client = try await TestConnection(port: server.port)
            let start = try await pageVersion(client, "/pages/counters.json")
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/counters/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            let updater = try #require(drop.current)

            let queued = await Task.detached {
                updater.updateRow("row-1", of: CounterRow.self) { row in row.title = "Loaded in the background" }
            }.value
            #expect(queued)

            // A select after it: the stream's next two events are the update's patch, then the select's.
            let text = try await stream.readStream(until: { events(in: $0).count >= 1 })
            #expect(try await client.request("POST", "/pages/counters/rows/row-2/select").status == 200)
            let first = try #require(events(in: text).first)
            #expect(first.contains("event: patch\n"))
            #expect(operations(in: first) == ["replace row-1"])
            #expect(first.contains(#""title":"Loaded in the background #0""#))
            #expect(eventID(first) == start + 1)
            let page = try PageJSON.decode(try await client.request("GET", "/pages/counters.json").text)
            #expect(page.row("row-1")?.title == "Loaded in the background #0")
            #expect(page.version == start + 1, "the update was one patch; selecting a plain row changes nothing")
        }
    }

    @Test func manyConcurrentUpdatersConvergeOnEveryChange() async throws {
        let drop = UpdaterDrop()
        let rows = 8, tasksPerRow = 25
        try await withSite(pages: BlockingPages.registry(BackgroundPages.counters(rows: rows, drop: drop))) { server, _ in
            let client = try await TestConnection(port: server.port)
            let start = try await pageVersion(client, "/pages/counters.json")
            let updater = try #require(drop.current)
            let accepted = await withTaskGroup(of: Bool.self) { group in
                for task in 0..<(rows * tasksPerRow) {
                    group.addTask {
                        updater.updateRow(RowID("row-\(task % rows)"), of: CounterRow.self) { row in row.count += 1 }
                    }
                }
                return await group.reduce(true) { $0 && $1 }
            }
            #expect(accepted)
            let expected = (0..<rows).map { "Row \($0) #\(tasksPerRow)" }
            var titles: [String] = []
            let converged = await eventually {
                guard let text = try? await client.request("GET", "/pages/counters.json").text,
                      let page = try? PageJSON.decode(text) else { return false }
                titles = page.sections.flatMap(\.rows).compactMap(\.title)
                return titles == expected
            }
            #expect(converged, "\(titles)")
            let end = try await pageVersion(client, "/pages/counters.json")
            #expect(end > start && end <= start + rows * tasksPerRow, "changes that arrive together share a patch")
            #expect(updater.queuedCount == 0)
        }
    }

    @Test func aPagesStartingVersionComesFromTheHostSoAnIDFromBeforeARestartGetsReset() async throws {
        let before = try await withSite { server, _ in
            let actor = try await TestConnection(port: server.port)
            #expect(try await actor.request("POST", "/pages/items/rows/item-1/select").status == 200)
            return try await pageVersion(actor)
        }
        // Without a clock, each table starts at a random id of its own, far above what a
        // database's clock counts to: the restarted server's table names no state it had before.
        #expect(PageVersions.localIDs.contains(before))
        try await withSite { server, _ in
            let client = try await TestConnection(port: server.port)
            let after = try await pageVersion(client)
            #expect(PageVersions.localIDs.contains(after) && after != before)
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/items/events", headers: [("Last-Event-ID", String(before))])
            let text = try await stream.readStream(until: { _ in false }, timeout: .seconds(5))
            #expect(text.contains("event: reset\ndata: {\"version\":\(after)}"))
            #expect(!text.contains("event: patch"))
        }
    }

    @Test func aChangeFeedOnARootThatIsNotReloadablePublishesTheDifference() async throws {
        let titles = SharedTitles(["first", "second"])
        let feed = ChangeFeed()
        try await withSite(pages: BlockingPages.registry(BackgroundPages.shared(titles: titles, feed: feed))) { server, _ in
            let client = try await TestConnection(port: server.port)
            let start = try await pageVersion(client, "/pages/shared.json")
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/shared/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })

            titles.set(["first", "changed"])
            feed.notify()

            let event = try #require(events(in: try await stream.readStream(until: { events(in: $0).count >= 1 })).first)
            #expect(event.contains("event: patch\n"))
            #expect(operations(in: event) == ["replace t1"])
            #expect(event.contains(#""title":"changed""#))
            #expect(eventID(event) == start + 1)
        }
    }
}
