import Foundation
import HTTPTestSupport
import MicroHTTP
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

/// `GET /-/events`: several pages over one stream, each replayed from its own id.
@Suite("Shared event stream")
struct SharedEventsTests {
    /// The position an event of a shared stream names: its first `data:` line.
    static func position(_ event: String) -> Int? {
        event.split(separator: "\n").first { $0.hasPrefix("data: ") }.flatMap { Int($0.dropFirst(6)) }
    }

    @Test func eachPageIsReplayedFromItsOwnIdThenFollowedLiveAfterItsPosition() async throws {
        try await withSite { server, _ in
            let actor = try await TestConnection(port: server.port)
            let start = try await pageVersion(actor)
            for row in ["item-1", "item-2"] { _ = try await actor.request("POST", "/pages/items/rows/\(row)/select") }
            // Two readers of one page at different versions, as two tabs opened a moment apart.
            let stream = try await TestConnection(port: server.port)
            let response = try await stream.openStream("/-/events?page=\(start):/pages/items&page=\(start + 1)%3A%2Fpages%2Fitems&format=json")
            #expect(response.status == 200 && response.header("Content-Type") == "text/event-stream; charset=utf-8")
            let replayed = events(in: try await stream.readStream(until: { events(in: $0).count >= 3 }))
            #expect(replayed.filter { Self.position($0) == 0 }.compactMap(eventID) == [start + 1, start + 2])
            #expect(replayed.filter { Self.position($0) == 1 }.compactMap(eventID) == [start + 2])
            _ = try await actor.request("POST", "/pages/items/rows/item-3/select")
            let all = events(in: try await stream.readStream(until: { events(in: $0).count >= 5 }))
            #expect(all.suffix(2).compactMap(Self.position).sorted() == [0, 1])
            #expect(all.suffix(2).allSatisfy { eventID($0) == start + 3 && $0.contains(#""row":"item-3""#) })
        }
    }

    @Test func aStaleIdResetsThatPageAloneAndTheStreamStaysOpen() async throws {
        var settings = LiveSettings()
        settings.patchLogCapacity = 2
        try await withSite(settings: settings) { server, _ in
            let actor = try await TestConnection(port: server.port)
            let start = try await pageVersion(actor)
            for _ in 0..<4 { _ = try await actor.request("POST", "/pages/items/rows/item-1/select") }
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/-/events?page=\(start):/pages/items&page=\(start + 4):/pages/items")
            let first = events(in: try await stream.readStream(until: { events(in: $0).count >= 1 }))
            #expect(first.count == 1 && Self.position(first[0]) == 0 && first[0].contains("event: reset\n"))
            _ = try await actor.request("POST", "/pages/items/rows/item-2/select")
            let next = events(in: try await stream.readStream(until: { events(in: $0).count >= 2 }))
            #expect(Self.position(next[1]) == 1 && eventID(next[1]) == start + 5)
            #expect(!stream.streamEnded)
        }
    }

    @Test func morePagesThanAStreamMayFollowIsA400() async throws {
        var settings = LiveSettings()
        settings.maxPagesPerStream = 2
        try await withSite(settings: settings) { server, _ in
            let connection = try await TestConnection(port: server.port)
            let answer = try await connection.request("GET", "/-/events?page=/pages/items&page=/pages/items&page=/pages/items", headers: [("Accept", "application/json")])
            #expect(answer.status == 400 && answer.text.contains("at most 2 pages"))
        }
    }

    @Test func aTaggedSubscribersBufferCountsItsTagAndAResetLeavesTheStreamOpen() {
        let channel = LiveChannel(latestID: 0, logCapacity: 2, subscriberBufferLimit: 1000)
        for id in 1...4 { channel.publish(LiveBoundsFixtures.patch(id, size: 100)) }
        let stream = EventStream()
        let tag = Array("data: 0\n".utf8)
        #expect(!channel.subscribe(stream, format: .json, lastSeenID: 1, tag: tag))
        #expect(stream.bufferedByteCount == tag.count + LiveChannel.resetEvent(latestID: 4).count)
        #expect(!stream.isClosed)
        #expect(channel.subscribe(stream, format: .json, lastSeenID: 3, tag: tag))
        #expect(channel.subscribe(stream, format: .json, lastSeenID: 4, tag: Array("data: 1\n".utf8)))
        #expect(channel.subscriberCount == 2, "one stream, two subscriptions to one variant")
        let before = stream.bufferedByteCount
        channel.publish(LiveBoundsFixtures.patch(5, size: 100))
        #expect(stream.bufferedByteCount == before + 2 * (tag.count + 100))
    }
}
