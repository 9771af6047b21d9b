import Foundation
import HTTPTestSupport
import MicroHTTP
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

@Suite("Live updates over Server-Sent Events")
struct LiveUpdateTests {
    @Test func aSelectPushesOnePatchWithIdenticalBytesToTwoSubscribers() async throws {
        try await withSite { server, _ in
            let first = try await TestConnection(port: server.port)
            let second = try await TestConnection(port: server.port)
            #expect(try await first.openStream("/pages/items/events").status == 200)
            #expect(try await second.openStream("/pages/items/events").header("Content-Type") == "text/event-stream; charset=utf-8")
            // Both are subscribed once the first `retry:` line arrived.
            _ = try await first.readStream(until: { $0.contains("retry:") })
            _ = try await second.readStream(until: { $0.contains("retry:") })

            let actor = try await TestConnection(port: server.port)
            let answer = try await actor.request("POST", "/pages/items/rows/item-2/select", headers: [("Accept", "application/json")])
            #expect(answer.status == 200)

            let firstText = try await first.readStream(until: { events(in: $0).count == 1 })
            let secondText = try await second.readStream(until: { events(in: $0).count == 1 })
            let firstEvents = events(in: firstText), secondEvents = events(in: secondText)
            #expect(firstEvents.count == 1)
            #expect(firstEvents == secondEvents)
            let event = try #require(firstEvents.first)
            #expect(event.contains("event: patch\n"))
            #expect(event.contains(#""op":"replace","section":"items","row":"item-2","html":"#))
            #expect(event.contains(#""subtitle":"done""#))
            #expect(!event.contains(#""row":"item-1""#))
            #expect(event.components(separatedBy: #""op":"#).count == 2, "exactly one op")
            #expect(answer.text.contains(#""version":\#(try #require(eventID(event)))"#))
        }
    }

    @Test func jsonFormatLeavesTheHTMLOut() async throws {
        try await withSite { server, _ in
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/items/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })
            let actor = try await TestConnection(port: server.port)
            _ = try await actor.request("POST", "/pages/items/rows/item-1/select")
            let event = try #require(events(in: try await stream.readStream(until: { events(in: $0).count == 1 })).first)
            #expect(event.contains(#""data":{"id":"item-1""#))
            #expect(!event.contains(#""html""#))
        }
    }

    @Test func resumingWithLastEventIDReplaysExactlyTheMissedPatches() async throws {
        try await withSite { server, _ in
            let actor = try await TestConnection(port: server.port)
            let start = try await pageVersion(actor)
            for row in ["item-1", "item-2", "item-3"] {
                #expect(try await actor.request("POST", "/pages/items/rows/\(row)/select").status == 200)
            }
            // The client saw the first patch, then lost its connection.
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/items/events", headers: [("Last-Event-ID", String(start + 1))])
            let replayed = events(in: try await stream.readStream(until: { events(in: $0).count >= 2 }))
            #expect(replayed.compactMap(eventID) == [start + 2, start + 3])
            #expect(replayed[0].contains(#""row":"item-2""#) && replayed[1].contains(#""row":"item-3""#))

            // Live patches follow the replay, none twice.
            _ = try await actor.request("POST", "/pages/items/rows/item-4/select")
            let all = events(in: try await stream.readStream(until: { events(in: $0).count >= 3 }))
            #expect(all.compactMap(eventID) == [start + 2, start + 3, start + 4])

            // Up to date: nothing replayed.
            let current = try await TestConnection(port: server.port)
            _ = try await current.openStream("/pages/items/events?lastEventId=\(start + 4)")
            _ = try await actor.request("POST", "/pages/items/rows/item-5/select")
            let live = events(in: try await current.readStream(until: { events(in: $0).count >= 1 }))
            #expect(live.compactMap(eventID) == [start + 5])
        }
    }

    @Test(arguments: ["too old", "future", "garbage"])
    func anUnknownLastEventIDGetsReset(kind: String) async throws {
        var settings = LiveSettings()
        settings.patchLogCapacity = 2
        try await withSite(settings: settings) { server, _ in
            let actor = try await TestConnection(port: server.port)
            let start = try await pageVersion(actor)
            for _ in 0..<5 { _ = try await actor.request("POST", "/pages/items/rows/item-1/select") }
            let lastSeen = switch kind {
            case "too old": String(start + 1)
            case "future": String(start + 1000)
            default: "not-a-number"
            }
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/items/events", headers: [("Last-Event-ID", lastSeen)])
            let text = try await stream.readStream(until: { _ in false }, timeout: .seconds(5))
            #expect(text.contains("event: reset\ndata: {\"version\":\(start + 5)}"))
            #expect(!text.contains("event: patch"))
            #expect(stream.streamEnded)
        }
    }

    @Test func aSubscriberThatStopsReadingIsDroppedWithBoundedMemory() async throws {
        var settings = LiveSettings()
        settings.subscriberBufferLimit = 64 * 1024
        try await withSite(settings: settings) { server, site in
            let slow = try await TestConnection(port: server.port, receiveBufferSize: 4096)
            _ = try await slow.openStream("/pages/items/events?size=big")
            let fast = try await TestConnection(port: server.port)
            _ = try await fast.openStream("/pages/items/events?size=big")
            let host = try #require(site.hosts.all.first)
            #expect(await eventually { host.channel.subscriberCount == 2 })

            // Each patch carries a 16 kB title twice (HTML and data); the slow client reads nothing.
            let actor = try await TestConnection(port: server.port)
            var published = 0
            while host.channel.subscriberCount == 2, published < 400 {
                _ = try await actor.request("POST", "/pages/items/rows/item-1/select?size=big")
                published += 1
                // Counted chunk by chunk (so are the slow reader's megabytes, in 4 KiB chunks,
                // below): the text grows to megabytes before the kernel's buffers fill and the slow
                // subscriber is dropped, and looking at all of it again after every chunk was
                // quadratic (over two minutes in a debug build on a busy machine, then a timeout).
                let received = try await fast.readStream(untilCount: published, timeout: .seconds(10))
                try #require(received >= published, "the fast subscriber has \(received) of \(published) patches")
            }
            #expect(host.channel.subscriberCount == 1, "the slow subscriber was dropped after \(published) patches")
            #expect(published < 400)
            // The fast reader got every patch and is still subscribed.
            #expect(try await fast.readStream(untilCount: published) == published)
            // When the slow client finally reads, its stream ends with a reset telling it to refetch.
            #expect(try await slow.readStream(untilCount: 1, of: "event: reset", timeout: .seconds(20)) == 1)
        }
    }
}

