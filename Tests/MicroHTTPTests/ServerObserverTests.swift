import HTTPTestSupport
import MicroHTTP
import Testing

@Suite("The server's observer")
struct ServerObserverTests {
    @Test func eachAnswerCarriesTheMatchedRoutePatternStatusAndDuration() async throws {
        let observer = RecordingObserver()
        try await withServer(testRouter(), configure: { $0.observer = observer }) { server in
            let connection = try await TestConnection(port: server.port)
            let requests: [(String, String, Int)] = [
                ("GET", "/hello", 200), ("GET", "/hello.json", 200), ("HEAD", "/hello", 200),
                ("GET", "/pages/todo/rows/todo-7", 200), ("GET", "/fail", 409), ("GET", "/slow", 200),
                ("GET", "/nowhere", 404), ("DELETE", "/hello", 405), ("BREW", "/hello", 405),
            ]
            for (method, path, status) in requests {
                #expect(try await connection.request(method, path).status == status, "\(method) \(path)")
            }
            let answers = observer.answers
            #expect(answers.map(\.method.rawValue) == requests.map(\.0))
            #expect(answers.map(\.status) == requests.map(\.2))
            #expect(answers.map(\.route) == [
                "/hello", "/hello", "/hello", "/pages/:page/rows/:row", "/fail", "/slow", nil, nil, nil,
            ])
            // `/slow` sleeps 100 ms before answering; the others answer at once.
            #expect(answers[5].duration >= .milliseconds(100))
            #expect(answers[0].duration < .milliseconds(100))
        }
    }

    @Test func eventStreamsAreReportedOpenedAndThenClosed() async throws {
        let observer = RecordingObserver()
        try await withServer(testRouter(), configure: {
            $0.observer = observer
            $0.heartbeatInterval = .milliseconds(100)
        }) { server in
            let first = try await TestConnection(port: server.port)
            let second = try await TestConnection(port: server.port)
            _ = try await first.openStream("/events")
            _ = try await second.openStream("/events")
            #expect(observer.openedCount == 2)
            #expect(observer.closedCount == 0)
            #expect(observer.answers.map(\.route) == ["/events", "/events"])
            first.close()
            // The next heartbeat finds the closed socket.
            #expect(await eventually { observer.closedCount == 1 })
            #expect(server.openStreamCount == 1)
            second.close()
            #expect(await eventually { observer.closedCount == 2 })
            #expect(observer.openedCount == 2)
        }
    }

    @Test func aStreamRefusedForItsClientsCapKeepsItsRouteAndIsNotCountedOpen() async throws {
        let observer = RecordingObserver()
        try await withServer(testRouter(), configure: {
            $0.observer = observer
            $0.maxStreamsPerClient = 1
        }) { server in
            let first = try await TestConnection(port: server.port)
            _ = try await first.openStream("/events")
            let second = try await TestConnection(port: server.port)
            #expect(try await second.request("GET", "/events").status == 429)
            #expect(observer.answers.map(\.status) == [200, 429])
            #expect(observer.answers.map(\.route) == ["/events", "/events"])
            #expect(observer.openedCount == 1)
        }
    }
}
