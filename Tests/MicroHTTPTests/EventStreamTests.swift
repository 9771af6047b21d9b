import HTTPTestSupport
import MicroHTTP
import Testing

@Suite("Event streams")
struct EventStreamTests {
    @Test func deliversThreeEventsAndAHeartbeat() async throws {
        let box = StreamBox()
        try await withServer(testRouter(streams: box), configure: { $0.heartbeatInterval = .milliseconds(200) }) { server in
            let connection = try await TestConnection(port: server.port)
            let head = try await connection.openStream("/events")
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream; charset=utf-8")
            #expect(await eventually { box.all.count == 1 })
            let stream = try #require(box.all.first)
            for number in 1...3 {
                stream.send(event: "patch", id: String(number), data: "{\"n\":\(number)}")
            }
            let text = try await connection.readStream(until: { $0.contains("id: 3") && $0.contains(": heartbeat") })
            #expect(text.contains("id: 1\nevent: patch\ndata: {\"n\":1}\n\n"))
            #expect(text.contains("id: 2\nevent: patch\ndata: {\"n\":2}\n\n"))
            #expect(text.contains("id: 3\nevent: patch\ndata: {\"n\":3}\n\n"))
            #expect(text.contains(": heartbeat\n\n"))
        }
    }

    @Test func noticesAClientThatWentAway() async throws {
        let box = StreamBox()
        try await withServer(testRouter(streams: box), configure: { $0.heartbeatInterval = .milliseconds(100) }) { server in
            let connection = try await TestConnection(port: server.port)
            _ = try await connection.openStream("/events")
            #expect(await eventually { box.all.count == 1 })
            #expect(server.openStreamCount == 1)
            connection.close()
            // The heartbeat write fails on the closed socket; libmicrohttpd then ends the response.
            #expect(await eventually { box.terminationCount == 1 })
            #expect(box.all[0].isClosed)
            #expect(!box.all[0].send(data: "late"))
            #expect(await eventually { server.openStreamCount == 0 })
        }
    }

    @Test func shutdownEndsOpenStreamsCleanly() async throws {
        let box = StreamBox()
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.threads = 2
        let server = Server(configuration: configuration, responder: testRouter(streams: box))
        try server.start()
        let connection = try await TestConnection(port: server.port)
        _ = try await connection.openStream("/events")
        #expect(await eventually { box.all.count == 1 })
        box.all[0].send(data: "before shutdown")
        let started = ContinuousClock.now
        await server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(5))
        let text = try await connection.readStream(until: { _ in false })
        #expect(text.contains("data: before shutdown"))
        #expect(connection.streamEnded)
        #expect(box.terminationCount == 1)
    }

    @Test func encodesMultilineDataAsOneDataLinePerLine() {
        let bytes = EventStream.encode(event: "patch", id: "7", data: "a\nb")
        #expect(String(decoding: bytes, as: UTF8.self) == "id: 7\nevent: patch\ndata: a\ndata: b\n\n")
    }
}
