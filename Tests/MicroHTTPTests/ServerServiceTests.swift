import HTTPTestSupport
import Logging
import MicroHTTP
import ServiceLifecycle
import Synchronization
import Testing

/// The server run by swift-service-lifecycle's `ServiceGroup`, as a program runs it beside its own services.
@Suite("The server as a Service")
struct ServerServiceTests {
    static func makeServer() -> (Server, Logger) {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.threads = 2
        var logger = Logger(label: "ServerServiceTests")
        logger.logLevel = .warning
        return (Server(configuration: configuration, responder: testRouter(), logger: logger), logger)
    }

    @Test("A group's graceful shutdown lets the request in flight finish, then stops the server")
    func gracefulShutdown() async throws {
        let (server, logger) = Self.makeServer()
        let seen = Seen()
        let service = HookedServer(server: server, seen: seen)
        let group = ServiceGroup(services: [service], logger: logger)
        let running = Task { try await group.run() }
        #expect(await eventually { server.port != 0 })
        #expect(seen.state.withLock { $0.listening } == server.port)
        let connection = try await TestConnection(port: server.port)
        #expect(try await connection.request("GET", "/hello").status == 200)

        let slow = try await TestConnection(port: server.port)
        try await slow.send(Array("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(await eventually { server.inFlightRequestCount == 1 })
        await group.triggerGracefulShutdown()
        let answer = try await slow.readResponse()
        #expect(answer.status == 200)
        #expect(answer.text == "waited")
        try await running.value
        #expect(server.port == 0, "stopped when the group returned")
        #expect(seen.state.withLock { $0.portAtShutdown } != 0, "told of the shutdown before the server stopped")
    }

    @Test("A cancelled group stops the server too")
    func cancellation() async throws {
        let (server, logger) = Self.makeServer()
        let group = ServiceGroup(services: [server], logger: logger)
        let running = Task { try await group.run() }
        #expect(await eventually { server.port != 0 })
        running.cancel()
        _ = try? await running.value
        #expect(server.port == 0)
    }
}

/// What the hooks saw: the port once listening, and the port when shutdown began (0 once stopped).
private final class Seen: Sendable {
    let state = Mutex<(listening: Int?, portAtShutdown: Int?)>((nil, nil))
}

/// The server's run with both hooks, recording what they saw.
private struct HookedServer: Service {
    let server: Server
    let seen: Seen

    func run() async throws {
        try await server.run(
            onListening: { port in seen.state.withLock { $0.listening = port } },
            onShutdown: { [server, seen] in seen.state.withLock { $0.portAtShutdown = server.port } }
        )
    }
}
