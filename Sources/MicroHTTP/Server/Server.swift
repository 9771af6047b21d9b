import CMicroHTTPD
import Logging
import Synchronization

/// An HTTP/1.1 server over libmicrohttpd: an epoll event loop on a pool of threads, keep-alive, async
/// handlers on suspended connections, and Server-Sent Events.
///
/// It is a swift-service-lifecycle `Service` (``run()``): a `ServiceGroup` starts it, and stops it
/// gracefully on SIGTERM or SIGINT.
///
///     let server = Server(configuration: .init(port: 8080), responder: router)
///     let group = ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
///     try await group.run()
///
/// Or by hand: ``start()``, then ``shutdown()``.
public final class Server: Sendable {
    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong, for the operator.
        public let description: String
    }

    private struct Running {
        var daemon: DaemonHandle
        var heartbeat: RepeatingTimer
        var hangupCheck: RepeatingTimer
        var deadlineSweeper: RepeatingTimer?
        var port: Int
    }

    private let core: ServerCore
    private let running = Mutex<Running?>(nil)

    /// Creates a server; it does not listen until ``start()``. `errorPage` is the page browsers see
    /// for the errors the server answers itself (a body too large, a request too slow, shutting
    /// down): a ``Router``'s ``Router/errorPage``, so that they look like the rest of the site.
    public init(configuration: ServerConfiguration, responder: some HTTPResponder, errorPage: ErrorPage = .plainText, logger: Logger = Logger(label: "MicroHTTP")) {
        core = ServerCore(configuration: configuration, responder: responder, errorPage: errorPage, logger: logger)
    }

    /// The port the server listens on (the real one when configured with port 0), or 0 when stopped.
    public var port: Int { running.withLock { $0?.port ?? 0 } }

    /// The number of client connections open now.
    public var openConnectionCount: Int { core.deadlines.count }

    /// The number of requests begun and not yet ended (a request counts from its complete head on).
    public var inFlightRequestCount: Int { core.inFlightCount.load(ordering: .relaxed) }

    /// The number of event streams open now.
    public var openStreamCount: Int { core.streams.count }

    /// Access log lines dropped because the log's buffer was full
    /// (``ServerConfiguration/accessLogBufferSize``), since the server was created.
    public var droppedAccessLogLines: Int { core.requestLog.droppedCount }

    /// Binds and starts serving on libmicrohttpd's threads; returns once the socket is listening.
    public func start() throws {
        let configuration = core.configuration
        guard (0...65_535).contains(configuration.port) else {
            throw StartError(description: "port \(configuration.port) is out of range 0–65535")
        }
        guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
            throw StartError(description: "cannot resolve host '\(configuration.host)'")
        }
        let reserve = ServerConfiguration.reservedFileDescriptors
        let filesWanted = min(configuration.connectionLimit, Int.max - reserve) + reserve
        let fileLimit = ProcessInfoLite.raiseOpenFileLimit(to: filesWanted)
        if fileLimit < filesWanted {
            // Past the file limit accept() fails and the database cannot open its files: say so now,
            // not when the busiest page is at its busiest.
            core.logger.warning("connection limit \(configuration.connectionLimit) leaves \(max(0, fileLimit - configuration.connectionLimit)) of this process's \(fileLimit) open files for the database, files and sockets (\(reserve) wanted): lower --connection-limit to \(max(1, fileLimit - reserve)) or raise the limit (ulimit -n)")
        }
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let coreRef = Unmanaged.passUnretained(core).toOpaque()
        let daemon: OpaquePointer? = address.withSockAddr { sockaddr in
            var settings = tp_daemon_settings(
                flags: flags, address: sockaddr, port: UInt16(configuration.port),
                thread_pool_size: UInt32(max(1, configuration.threads)),
                connection_limit: UInt32(clamping: max(1, configuration.connectionLimit)),
                connection_timeout: UInt32(max(0, configuration.connectionTimeout)),
                connection_memory_limit: core.connectionMemoryLimit,
                listen_backlog: 1024
            )
            return tp_start_daemon(&settings, handleAcceptPolicy, handleAccess, coreRef, handleCompletion, coreRef, handleConnectionNotice, keepPercentEscapes, noteRequestTarget)
        }
        guard let daemon else {
            throw StartError(description: "cannot listen on \(configuration.host):\(configuration.port) (address in use, or not allowed)")
        }
        let port = Int(tp_daemon_port(daemon))
        core.requestLog.start()
        let heartbeat = RepeatingTimer(label: "microhttp.heartbeat", every: core.configuration.heartbeatInterval) { [core] in
            core.streams.sendHeartbeats()
        }
        let hangupCheck = RepeatingTimer(label: "microhttp.hangups", every: StreamRegistry.hangupCheckInterval) { [core] in
            core.streams.closeVanished()
        }
        let deadlineSweeper = core.deadlines.timeout > .zero ? RepeatingTimer(label: "microhttp.deadlines", every: core.deadlines.sweepInterval) { [core] in
            let disconnected = core.deadlines.sweep()
            if disconnected > 0 {
                core.logger.debug("disconnected \(disconnected) clients that took longer than \(core.deadlines.timeout) to send a request")
            }
        } : nil
        running.withLock {
            $0 = Running(daemon: DaemonHandle(pointer: daemon), heartbeat: heartbeat, hangupCheck: hangupCheck, deadlineSweeper: deadlineSweeper, port: port)
        }
        core.logger.notice("listening on http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(port) with \(configuration.threads) threads, up to \(configuration.connectionLimit) connections (open-file limit \(fileLimit))")
    }

    /// Stops gracefully: closes new connections at once, ends every event stream, lets in-flight requests finish
    /// (up to the grace period, then answers them 503), and closes the socket. Safe to call twice.
    public func shutdown() async {
        guard let state = running.withLock({ running -> Running? in
            defer { running = nil }
            return running
        }) else { return }
        core.logger.notice("shutting down: \(core.inFlightCount.load(ordering: .relaxed)) requests in flight, \(core.streams.count) streams open")
        core.isShuttingDown.store(true, ordering: .releasing)
        state.heartbeat.cancel()
        state.hangupCheck.cancel()
        state.deadlineSweeper?.cancel()
        // No MHD_quiesce_daemon: on an epoll daemon with its own threads it races the threads'
        // own removal of the listening socket from their epoll sets, and libmicrohttpd (0.9.75)
        // aborts the process when it loses ("Failed to remove listen FD from epoll set": seen in
        // CI). New connections are closed at once by `handleAcceptPolicy` instead.
        core.streams.finishAll()
        let deadline = ContinuousClock.now + core.configuration.shutdownGracePeriod
        while core.inFlightCount.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let abandoned = core.abandonWaitingRequests()
        if abandoned > 0 {
            core.logger.warning("answered \(abandoned) unfinished requests with 503 at shutdown")
        }
        // Streams opened by handlers that finished during the grace period end too; then the event
        // threads get a moment to carry out the resumes before the daemon checks for suspended ones.
        core.streams.finishAll()
        try? await Task.sleep(for: .milliseconds(100))
        MHD_stop_daemon(state.daemon.pointer)
        // Every request is answered now: the log's last lines go out before shutdown returns.
        await core.requestLog.stop()
        core.logger.notice("stopped")
    }
}

/// libmicrohttpd's daemon pointer.
///
/// `@unchecked Sendable` because it is a thin wrapper of a C pointer; the daemon is used only to
/// stop it, which libmicrohttpd allows from any thread.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
