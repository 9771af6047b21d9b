import CMicroHTTPD
import Logging
import Synchronization

/// The state libmicrohttpd's callbacks reach through their `cls` pointer: what answers requests, and
/// what shutdown needs to find (suspended requests, open streams).
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let responder: any HTTPResponder
    /// The look of the errors the server answers itself; the responder's own are its business.
    let errorPage: ErrorPage
    let logger: Logger
    let requestLog: RequestLog
    let streams = StreamRegistry()
    let deadlines: ReceiveDeadlines
    let inFlightCount = Atomic<Int>(0)
    let connectionsPerClient: ConnectionsPerClient
    /// Set when shutdown begins: from then on nothing may suspend a connection, because
    /// libmicrohttpd aborts the process if the daemon stops with a connection suspended.
    let isShuttingDown = Atomic<Bool>(false)
    private let waiting = Mutex<[ObjectIdentifier: (RequestContext, ConnectionHandle)]>([:])

    /// Whether requests are timed (``RequestContext/startedAt``): for the request log or the observer.
    let timesRequests: Bool

    /// The per-connection memory limit in force (the configured one, at least
    /// ``ServerConfiguration/minimumConnectionMemoryLimit``).
    let connectionMemoryLimit: Int

    init(configuration: ServerConfiguration, responder: any HTTPResponder, errorPage: ErrorPage, logger: Logger) {
        self.errorPage = errorPage
        self.configuration = configuration
        self.connectionMemoryLimit = max(ServerConfiguration.minimumConnectionMemoryLimit, configuration.connectionMemoryLimit)
        self.responder = responder
        self.logger = logger
        self.requestLog = RequestLog(
            logger: logger, format: configuration.accessLogFormat, byteLimit: configuration.accessLogBufferSize,
            flushInterval: configuration.accessLogFlushInterval, output: configuration.accessLogOutput
        )
        self.timesRequests = requestLog.isEnabled || configuration.observer != nil
        self.deadlines = ReceiveDeadlines(timeout: configuration.requestTimeout)
        self.connectionsPerClient = ConnectionsPerClient(limit: configuration.perClientConnectionLimit, trusted: configuration.trustedProxies)
    }

    /// When the last rate-limited warning was logged, so that a server at its limit says so every
    /// ``limitWarningInterval``, not once per client.
    private let lastLimitWarning = Mutex<ContinuousClock.Instant?>(nil)
    static let limitWarningInterval = Duration.seconds(10)

    /// Called on the event thread for every new connection: at the connection limit libmicrohttpd
    /// stops accepting (new clients wait in the listen backlog, and may time out there) without a
    /// word, so the server says it.
    func connectionOpened(openCount: Int) {
        // libmicrohttpd splits the limit between its event threads: the server is full once every
        // thread's share is, within a connection per thread of the total.
        let threads = max(1, configuration.threads)
        guard openCount >= max(1, configuration.connectionLimit - threads + 1) else { return }
        warnRateLimited("reached the connection limit: \(openCount) connections open of --connection-limit \(configuration.connectionLimit) (open-file limit \(ProcessInfoLite.openFileSoftLimit ?? 0)); new connections wait in the listen backlog until others close. Raise --connection-limit (and ulimit -n) if this is the normal load")
    }

    /// Logs `message` as a warning unless one was logged in the last ``limitWarningInterval``.
    func warnRateLimited(_ message: @autoclosure () -> String) {
        let now = ContinuousClock.now
        let due = lastLimitWarning.withLock { last -> Bool in
            if let last, now - last < Self.limitWarningInterval { return false }
            last = now
            return true
        }
        if due { logger.warning("\(message())") }
    }

    /// Runs the responder's deferred answer to `request` while the connection stays suspended;
    /// whichever thread it finishes on resumes the connection.
    func respondLater(with answer: HTTPAnswer, to request: Request, context: RequestContext, connection: ConnectionHandle) {
        let key = ObjectIdentifier(context)
        waiting.withLock { $0[key] = (context, connection) }
        answer.run(for: request) { [self] response in
            waiting.withLock { _ = $0.removeValue(forKey: key) }
            context.complete(with: response, resuming: connection)
        }
    }

    /// The answer the server makes itself to `refusal`, in the server's ``errorPage``.
    func response(for refusal: RequestLifecycle.Refusal) -> Response {
        errorPage.apply(to: plainResponse(for: refusal))
    }

    private func plainResponse(for refusal: RequestLifecycle.Refusal) -> Response {
        switch refusal {
        case .badHead(let problem):
            .error(problem.status, problem.message, json: false)
        case .bodyTooLarge:
            .error(413, "The request body is larger than the \(configuration.maxBodySize) bytes this server accepts.", json: false)
        case .receiveTimedOut:
            .error(408, "The request took longer than the \(configuration.requestTimeout) this server allows to receive one.", json: false)
        case .shuttingDown:
            Self.shuttingDown
        }
    }

    /// The answer to a request that shutdown stopped.
    static let shuttingDown = Response.error(503, "The server is shutting down.", json: false)

    /// Answers every still-suspended request with 503, so no connection is left suspended when the
    /// daemon stops (libmicrohttpd requires that).
    func abandonWaitingRequests() -> Int {
        let pending = waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        let answer = errorPage.apply(to: Self.shuttingDown)
        for (context, connection) in pending {
            context.complete(with: answer, resuming: connection)
        }
        return pending.count
    }

    /// The block size handed to libmicrohttpd for event stream responses. libmicrohttpd allocates
    /// (and zeroes) a buffer of this size with every callback response, for each subscriber, yet
    /// fills chunked (HTTP/1.1) responses straight into the connection's write buffer and uses the
    /// block only for HTTP/1.0 clients, where it caps each read of the stream (an HTTP/1.0
    /// subscriber gets an event in pieces of this size, one send each). Kept tiny: every idle
    /// subscriber pays for it, and HTTP/1.0 event-stream clients are rare (browsers speak 1.1).
    static let eventStreamBlockSize = 32

    /// The block size for streamed bodies (``BodyStream``), which are downloads rather than idle
    /// connections: the same role as ``eventStreamBlockSize``, sized for HTTP/1.0 throughput.
    static let streamedBodyBlockSize = 256

    /// Builds the libmicrohttpd response for `response` and queues it; returns false when
    /// libmicrohttpd refused it (the connection is then closed).
    func queue(_ response: Response, on connection: OpaquePointer, for request: Request?, context: RequestContext, method: HTTPMethod, path: String) -> Bool {
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            mhdResponse = Self.makeResponse(copying: bytes)
        case .prepared(let prepared):
            if let handle = prepared.handle, response.headers.hasSameFields(as: prepared.headers) {
                // Shared, not built: libmicrohttpd takes its own reference while it sends it.
                let queued = MHD_queue_response(connection, UInt32(response.status), handle.pointer) == .YES
                requestLog.record(method: method, path: path, status: response.status, startedAt: context.startedAt, request: request, fields: response.logFields)
                observe(method: method, response: response, context: context)
                return queued
            }
            // Header fields changed after it was prepared: built per request like `.bytes`.
            mhdResponse = Self.makeResponse(copying: prepared.body)
        case .stream(let stream):
            // Counted by the client a trusted proxy names, not by the proxy.
            let client = (request?.clientAddress ?? tp_connection_client_address(connection).flatMap { PeerAddress($0) })?.clientKey
            guard streams.add(stream, client: client, limit: configuration.maxStreamsPerClient) else {
                // Ends the stream at once, so its owner lets go of it too.
                stream.detach()
                var refusal = errorPage.apply(to: Response.error(429, "This client already has \(configuration.maxStreamsPerClient) live streams open, the most this server allows; close one first.", json: request?.prefersJSON ?? false))
                refusal.route = response.route
                return queue(refusal, on: connection, for: request, context: context, method: method, path: path)
            }
            stream.attach(to: ConnectionHandle(pointer: connection), descriptor: tp_connection_fd(connection))
            context.lifecycle.withLock { $0.streamQueued() }
            // The registry is left by the stream itself when it ends (no handler per stream).
            if let observer = configuration.observer {
                observer.eventStreamOpened()
                stream.onTermination { observer.eventStreamClosed() }
            }
            // A stream opened after shutdown began sends what it has and ends, never sleeps.
            if isShuttingDown.load(ordering: .acquiring) { stream.finish() }
            // The stream is retained by the response and released in its free callback.
            mhdResponse = MHD_create_response_from_callback(
                UInt64.max, Self.eventStreamBlockSize, readEventStream, Unmanaged.passRetained(stream).toOpaque(), releaseEventStream
            )
            // A live stream is idle by design between events; heartbeats find dead peers instead.
            tp_connection_set_timeout(connection, 0)
        case .streamed(let body):
            body.buffer.attach(to: ConnectionHandle(pointer: connection))
            // Retained by the response, released in its free callback; the connection keeps its
            // idle timeout, so a client that stops reading is dropped.
            mhdResponse = MHD_create_response_from_callback(
                UInt64.max, Self.streamedBodyBlockSize, readBodyStream, Unmanaged.passRetained(body).toOpaque(), releaseBodyStream
            )
        }
        guard let mhdResponse else { return false }
        defer { MHD_destroy_response(mhdResponse) }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(mhdResponse, name, value)
        }
        let queued = MHD_queue_response(connection, UInt32(response.status), mhdResponse) == .YES
        requestLog.record(method: method, path: path, status: response.status, startedAt: context.startedAt, request: request, fields: response.logFields)
        observe(method: method, response: response, context: context)
        return queued
    }

    /// Tells the observer, if there is one, that `response` was queued.
    func observe(method: HTTPMethod, response: Response, context: RequestContext) {
        guard let observer = configuration.observer, let startedAt = context.startedAt else { return }
        observer.requestAnswered(method: method, route: response.route, status: response.status, duration: .now - startedAt)
    }

    private static func makeResponse(copying bytes: [UInt8]) -> OpaquePointer? {
        bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    }
}

