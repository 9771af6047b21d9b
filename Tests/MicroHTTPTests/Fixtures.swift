import HTTPTestSupport
import Logging
import MicroHTTP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Starts a real server on an ephemeral port for one test and stops it afterwards.
func withServer<T>(
    _ router: Router, logLevel: Logger.Level = .warning, configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Server) async throws -> T
) async throws -> T {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.threads = 2
    configure(&configuration)
    var logger = Logger(label: "MicroHTTPTests")
    logger.logLevel = logLevel
    let server = Server(configuration: configuration, responder: router, errorPage: router.errorPage, logger: logger)
    try server.start()
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// Waits until `condition` holds, polling, for at most `timeout`.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

/// A router with the routes the end-to-end tests use.
func testRouter(streams: StreamBox = StreamBox()) -> Router {
    var router = Router()
    router.immediate(.get, "/hello", { _ in .text("hello") })
    router.immediate(.get, "/pages/:page/rows/:row", { request in
        .text("\(request.parameters["page"]!)|\(request.parameters["row"]!)|\(request.query["q"] ?? "-")")
    })
    router.on(.post, "/echo") { request in
        Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body)
    }
    router.on(.get, "/slow") { _ in
        try await Task.sleep(for: .milliseconds(100))
        return .text("waited")
    }
    router.on(.get, "/fail") { _ in throw HTTPError(409, "conflict here") }
    router.on(.get, "/events") { _ in
        let stream = EventStream()
        streams.add(stream)
        return Response(stream: stream)
    }
    return router
}

/// Collects the event streams handlers opened, so a test can write to them from outside.
final class StreamBox: Sendable {
    private let streams = Mutex<[EventStream]>([])
    private let terminations = Atomic<Int>(0)

    func add(_ stream: EventStream) {
        stream.onTermination { self.terminations.add(1, ordering: .relaxed) }
        streams.withLock { $0.append(stream) }
    }

    var all: [EventStream] { streams.withLock { $0 } }
    var terminationCount: Int { terminations.load(ordering: .relaxed) }
}

/// A connected pair of loopback TCP sockets, (server side, client side), like one a listening server
/// accepts; the caller closes both.
func loopbackSocketPair() throws -> (server: Int32, client: Int32) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { _ = Glibc.close(listener) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(listener, pointer, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, pointer, &length) == 0
        }
    }
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    let connected = bound && withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) == 0 }
    }
    let server = connected ? accept(listener, nil, nil) : -1
    guard server >= 0 else {
        _ = Glibc.close(client)
        throw TestConnection.Failure(description: "no loopback socket pair: errno \(errno)")
    }
    return (server, client)
}

/// A ``ServerObserver`` that keeps what it was told.
final class RecordingObserver: ServerObserver {
    struct Answer: Equatable {
        let method: HTTPMethod
        let route: String?
        let status: Int
        let duration: Duration
    }

    private let recorded = Mutex<[Answer]>([])
    private let opened = Atomic<Int>(0)
    private let closed = Atomic<Int>(0)

    var answers: [Answer] { recorded.withLock { $0 } }
    var openedCount: Int { opened.load(ordering: .relaxed) }
    var closedCount: Int { closed.load(ordering: .relaxed) }

    func requestAnswered(method: HTTPMethod, route: String?, status: Int, duration: Duration) {
        recorded.withLock { $0.append(Answer(method: method, route: route, status: status, duration: duration)) }
    }

    func eventStreamOpened() { opened.add(1, ordering: .relaxed) }
    func eventStreamClosed() { closed.add(1, ordering: .relaxed) }
}
