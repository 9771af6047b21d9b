import HTTPTestSupport
import MicroHTTP
import Testing

/// Clients that send slowly, too much, or open too many streams must not hold the server's slots.
@Suite("Slow and greedy clients")
struct SlowClientTests {
    /// A head far longer than a test ever trickles, so it is never complete.
    static let endlessHead = Array(("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + String(repeating: "a", count: 1_000)).utf8)

    @Test func aHeadTrickledSlowerThanTheDeadlineIsDisconnected() async throws {
        try await withServer(testRouter(), configure: { $0.requestTimeout = .seconds(1) }) { server in
            let connecting = ContinuousClock.now
            let connection = try await TestConnection(port: server.port)
            // One byte every 200 ms: never idle long enough for the 60 s idle timeout.
            let outcome = try await connection.trickle(Self.endlessHead, every: .milliseconds(200), timeout: .seconds(8))
            let closedAt = try #require(outcome.closedAt, "the server kept a trickled head open past its deadline")
            // The deadline counts from the moment the server accepted, which is after `connecting`.
            #expect(closedAt - connecting >= .seconds(1))
            // Generous: under load the sweeper's rounds run late.
            #expect(closedAt - connecting < .seconds(5))
            #expect(await eventually { server.openConnectionCount == 0 })
        }
    }

    @Test func aBodyTrickledPastTheDeadlineIsAnswered408AndClosed() async throws {
        try await withServer(testRouter(), configure: { $0.requestTimeout = .seconds(1) }) { server in
            let connection = try await TestConnection(port: server.port)
            try await connection.send(Array("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n".utf8))
            let outcome = try await connection.trickle(Array(repeating: UInt8(ascii: "x"), count: 1_000), every: .milliseconds(100), timeout: .seconds(8))
            let closedAfter = try #require(outcome.closedAfter, "the server kept a trickled body open past its deadline")
            #expect(closedAfter < .seconds(5))
            #expect(outcome.sentCount < 1_000)
            let answer = String(decoding: outcome.received, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
            #expect(answer.contains("Connection: close\r\n"))
            #expect(answer.contains("longer than the"))
        }
    }

    @Test func aKeptAliveConnectionIdleLongerThanTheDeadlineServesItsNextRequest() async throws {
        try await withServer(testRouter(), configure: { $0.requestTimeout = .seconds(2) }) { server in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/hello").status == 200)
            // Idle, not slow: the wait between requests belongs to the 60 s idle timeout.
            try await Task.sleep(for: .seconds(3))
            let second = try await connection.request("GET", "/hello")
            #expect(second.status == 200)
            #expect(second.text == "hello")
        }
    }

    @Test func aSecondRequestTrickledOnAKeptAliveConnectionMeetsItsOwnDeadline() async throws {
        try await withServer(testRouter(), configure: { $0.requestTimeout = .seconds(1) }) { server in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/hello").status == 200)
            try await Task.sleep(for: .milliseconds(1_500))
            let outcome = try await connection.trickle(Self.endlessHead, every: .milliseconds(200), timeout: .seconds(8))
            let closedAfter = try #require(outcome.closedAfter, "a trickled second request outlived its deadline")
            #expect(closedAfter < .seconds(5))
        }
    }

    @Test func aHandlerSlowerThanTheDeadlineStillAnswers() async throws {
        var router = testRouter()
        router.on(.post, "/nap") { request in
            try await Task.sleep(for: .milliseconds(1_800))
            return .text("rested \(request.body.count)")
        }
        try await withServer(router, configure: { $0.requestTimeout = .seconds(1) }) { server in
            let connection = try await TestConnection(port: server.port)
            let response = try await connection.request("POST", "/nap", body: Array(repeating: 1, count: 10))
            #expect(response.status == 200)
            #expect(response.text == "rested 10")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer(testRouter(), configure: { $0.requestTimeout = .seconds(1) }) { server in
            let connection = try await TestConnection(port: server.port)
            let one = Array("GET /pages/a/rows/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            let two = Array("GET /pages/b/rows/2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            try await connection.send(one + two)
            #expect(try await connection.readResponse().text == "a|1|-")
            #expect(try await connection.readResponse().text == "b|2|-")
            // The connection outlives the deadline between requests, then serves a third.
            try await Task.sleep(for: .milliseconds(1_600))
            #expect(try await connection.request("GET", "/hello").text == "hello")
        }
    }

    @Test func anEventStreamLivesPastTheDeadline() async throws {
        let box = StreamBox()
        try await withServer(testRouter(streams: box), configure: { $0.requestTimeout = .seconds(1) }) { server in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.openStream("/events").status == 200)
            #expect(await eventually { box.all.count == 1 })
            try await Task.sleep(for: .milliseconds(2_500))
            box.all[0].send(data: "still here")
            let text = try await connection.readStream(until: { $0.contains("still here") }, timeout: .seconds(5))
            #expect(text.contains("data: still here"))
            #expect(!connection.streamEnded)
        }
    }

    @Test func aChunkedBodyPastTheLimitIsRefusedBeforeTheSenderFinishes() async throws {
        try await withServer(testRouter(), configure: { $0.maxBodySize = 64 * 1024 }) { server in
            let connection = try await TestConnection(port: server.port)
            try await connection.send(Array("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
            let chunk = Array("10000\r\n".utf8) + Array(repeating: UInt8(ascii: "z"), count: 0x10000) + Array("\r\n".utf8)
            let total = 1_024  // 64 MiB offered, 1,000 times the limit
            var sent = 0
            while sent < total {
                do { try await connection.send(chunk) } catch { break }
                sent += 1
            }
            #expect(sent < total, "the server read the whole oversized body")
            let response = try await connection.readResponse(timeout: .seconds(5))
            #expect(response.status == 413)
            #expect(response.header("Connection") == "close")
            #expect(response.text.contains("larger than the 65536 bytes"))
            _ = try await connection.readUntilClosed(timeout: .seconds(5))
        }
    }

    @Test func aConnectionKeptAliveAfterAnEventStreamTimesOutWhenIdle() async throws {
        let box = StreamBox()
        try await withServer(testRouter(streams: box), configure: { $0.connectionTimeout = 3 }) { server in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.openStream("/events").status == 200)
            #expect(await eventually { box.all.count == 1 })
            box.all[0].finish()
            _ = try await connection.readStream(until: { _ in false })
            #expect(connection.streamEnded)
            // Still open and usable after the stream ended…
            #expect(try await connection.request("GET", "/hello").status == 200)
            // …and closed once idle for the idle timeout, which the stream had turned off.
            let started = ContinuousClock.now
            _ = try await connection.readUntilClosed(timeout: .seconds(8))
            #expect(ContinuousClock.now - started >= .seconds(2))
        }
    }

    @Test func eventStreamsPerClientAddressAreCapped() async throws {
        let box = StreamBox()
        try await withServer(testRouter(streams: box), configure: { $0.maxStreamsPerClient = 2 }) { server in
            var open: [TestConnection] = []
            for _ in 0..<2 {
                let connection = try await TestConnection(port: server.port)
                #expect(try await connection.openStream("/events").status == 200)
                open.append(connection)
            }
            let third = try await TestConnection(port: server.port)
            let refused = try await third.request("GET", "/events", headers: [("Accept", "text/event-stream")])
            #expect(refused.status == 429)
            #expect(refused.text.contains("already has 2 live streams open"))
            #expect(server.openStreamCount == 2)
            // The refused stream was ended, so its owner let go of it.
            #expect(await eventually { box.terminationCount == 1 })

            // Another address is another client.
            for address in ["127.0.0.2", "127.0.0.3"] {
                let other = try await TestConnection(port: server.port, localAddress: address)
                #expect(try await other.openStream("/events").status == 200)
                open.append(other)
            }
            #expect(await eventually { server.openStreamCount == 4 })

            // A stream that ends makes room for a new one.
            box.all[0].finish()
            #expect(await eventually { server.openStreamCount == 3 })
            let fourth = try await TestConnection(port: server.port)
            #expect(try await fourth.openStream("/events").status == 200)
        }
    }
}
