import HTTPTestSupport
import Logging
import MicroHTTP
import ServiceLifecycle
import Synchronization
import TablePages
@testable import TablePagesTestSupport
import Testing

/// A site run as a `Service` in a `ServiceGroup` beside a program's own service.
@Suite("A site as a Service")
struct SiteServiceTests {
    @Test("Beside another service, the site serves and logs its sign-in link; graceful shutdown lets a slow page finish, then stops both")
    func besideAnotherService() async throws {
        let recorder = LogRecorder()
        let site = Site(pages: BlockingPages.registry(BlockingPages.slow()), logger: recorder.logger())
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.threads = 2
        var quiet = Logger(label: "SiteServiceTests")
        quiet.logLevel = .warning
        let service = SiteService(site: site, configuration: configuration, logger: quiet)
        let other = OwnService()
        let group = ServiceGroup(services: [other, service], logger: quiet)
        let running = Task { try await group.run() }
        #expect(await eventually { service.server.port != 0 })
        let port = service.server.port
        #expect(await eventually { recorder.messages(at: .notice).contains { $0.contains("open: http://127.0.0.1:\(port)/") } })

        async let slow = TestConnection(port: port).request("GET", "/pages/slow.json?ms=800")
        try await Task.sleep(for: .milliseconds(300))
        await group.triggerGracefulShutdown()
        #expect(try await slow.status == 200, "the request in flight is answered")
        try await running.value
        #expect(service.server.port == 0)
        #expect(other.ended.withLock { $0 }, "the program's own service shut down too")
    }
}

/// A program's own service: runs until graceful shutdown.
private final class OwnService: Service, Sendable {
    let ended = Mutex(false)

    func run() async throws {
        try? await gracefulShutdown()
        ended.withLock { $0 = true }
    }
}
