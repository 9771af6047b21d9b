import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

// libmicrohttpd's callbacks. They are file-scope functions in a library file on purpose: a closure
// written at top level in main.swift is main-actor isolated in Swift 6 and traps when libmicrohttpd
// calls it from one of its worker threads.

/// The access handler: called once when headers arrive, once per body chunk, and once more when the
/// body is complete (and again after every resume). The response is queued on that later call, never
/// the first: queued on the first, libmicrohttpd answers `Connection: close` and keep-alive is lost.
func handleAccess(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let url, let method, let uploadDataSize, let requestState else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()

    let watch = connectionWatch(of: connection)
    guard let stored = requestState.pointee else {
        let context = RequestContext(startedAt: core.timesRequests ? .now : nil)
        requestState.pointee = Unmanaged.passRetained(context).toOpaque()
        core.inFlightCount.add(1, ordering: .relaxed)
        watch?.headReceived(at: .now)
        let (targetLength, targetHasControl) = watch?.state.withLock { state in
            defer {
                state.targetLength = nil
                state.targetHasControl = false
            }
            return (state.targetLength, state.targetHasControl)
        } ?? (nil, false)
        if let problem = targetHasControl ? HTTPError(400, "The request target has a control character.")
            : RequestHeadCheck.problem(on: connection, url: url, targetLength: targetLength, version: version) {
            // Answered before the body: libmicrohttpd then closes the connection, so no byte after
            // this head is read as a request of its own.
            context.state.withLock { $0.phase = .answered }
            watch?.requestReceived()
            let response = Response.error(problem.status, problem.message, json: false)
            return core.queue(response, on: connection, for: nil, context: context, method: HTTPMethod(cString: method), path: String(cString: url)) ? .YES : .NO
        }
        if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
           let length = Int(String(cString: declared)), length > core.configuration.maxBodySize {
            // Refusing before the body is read: libmicrohttpd then closes the connection instead of
            // reading megabytes it would throw away.
            context.state.withLock { $0.phase = .answered }
            watch?.requestReceived()
            let response = Response.error(413, tooLargeMessage(core), json: false)
            return core.queue(response, on: connection, for: nil, context: context, method: HTTPMethod(cString: method), path: String(cString: url)) ? .YES : .NO
        }
        return .YES
    }
    let context = Unmanaged<RequestContext>.fromOpaque(stored).takeUnretainedValue()

    if uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        let tooLarge = context.state.withLock { state -> Bool in
            guard case .receiving = state.phase, !state.bodyTooLarge else { return false }
            if state.body.count + count > core.configuration.maxBodySize {
                state.bodyTooLarge = true
                state.body = []
                return true
            } else if let uploadData {
                UnsafeRawPointer(uploadData).withMemoryRebound(to: UInt8.self, capacity: count) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            return false
        }
        // A body without a declared length (chunked) that passed the limit, or one still arriving
        // after the receive deadline: answered now and closed, the rest never read.
        let refusal: Response?
        if tooLarge {
            refusal = .error(413, tooLargeMessage(core), json: false)
        } else if watch?.isOverdue == true {
            refusal = .error(408, "The request took longer than the \(core.configuration.requestTimeout) this server allows to receive one.", json: false)
        } else {
            refusal = nil
        }
        if let refusal {
            context.state.withLock { $0.phase = .answered }
            watch?.requestReceived()
            ImmediateRefusal.send(core.responder.errorPage.apply(to: refusal), on: tp_connection_fd(connection))
            core.requestLog.record(method: HTTPMethod(cString: method), path: String(cString: url), status: refusal.status, startedAt: context.startedAt, request: nil)
            core.observe(method: HTTPMethod(cString: method), response: refusal, context: context)
            return .NO
        }
        return .YES
    }

    let (phase, body, tooLarge, earlierRequest) = context.state.withLock { state in
        (state.phase, state.body, state.bodyTooLarge, state.request)
    }
    switch phase {
    case .answered, .waiting:
        return .YES
    case .ready(let response):
        // The request is dropped once answered: an event stream's context lives as long as the
        // stream, and it should not keep the request's fields alive all that time.
        context.state.withLock {
            $0.phase = .answered
            $0.request = nil
        }
        return core.queue(response, on: connection, for: earlierRequest, context: context, method: HTTPMethod(cString: method), path: String(cString: url)) ? .YES : .NO
    case .receiving:
        // The whole request is here: from now on a handler or a response owns the connection.
        watch?.requestReceived()
    }
    let methodValue = HTTPMethod(cString: method)
    if core.isShuttingDown.load(ordering: .acquiring) {
        // A request on a kept-alive connection after shutdown began: answered at once, so that no
        // connection is suspended when the daemon stops.
        context.state.withLock { $0.phase = .answered }
        let response = Response.error(503, "The server is shutting down.", json: false)
        return core.queue(response, on: connection, for: nil, context: context, method: methodValue, path: String(cString: url)) ? .YES : .NO
    }
    let path = String(cString: url)

    let response: Response?
    var request: Request?
    var deferred: HTTPAnswer?
    if tooLarge {
        response = .error(413, tooLargeMessage(core), json: false)
    } else {
        switch RequestParser.parse(
            connection: connection, method: methodValue, path: path, body: body,
            connectionMemoryLimit: core.connectionMemoryLimit, trustedProxies: core.configuration.trustedProxies
        ) {
        case .success(let parsed):
            request = parsed
            switch core.responder.answer(to: parsed) {
            case .now(let answer): response = answer
            case let answer: (response, deferred) = (nil, answer)
            }
        case .failure(let error):
            let accept = MHD_lookup_connection_value(connection, .HEADER_KIND, "Accept").map { String(cString: $0) } ?? ""
            response = .error(error.status, error.message, json: path.hasSuffix(".json") || accept.contains("application/json"))
        }
    }
    if let response {
        context.state.withLock { $0.phase = .answered }
        return core.queue(response, on: connection, for: request, context: context, method: methodValue, path: path) ? .YES : .NO
    }
    guard let request, let deferred else { return .NO }
    context.state.withLock {
        $0.phase = .waiting
        $0.body = []
        $0.request = request
    }
    let handle = ConnectionHandle(pointer: connection)
    handle.suspend()
    switch deferred {
    case .later(let work): core.respondLater(with: work, context: context, connection: handle)
    case .elsewhere(let start): core.respondElsewhere(starting: start, context: context, connection: handle)
    case .now: break  // Queued above.
    }
    return .YES
}

private func tooLargeMessage(_ core: ServerCore) -> String {
    "The request body is larger than the \(core.configuration.maxBodySize) bytes this server accepts."
}

/// Called when a request ends, answered or not: frees the context the access handler stored.
func handleCompletion(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
    guard let cls, let requestState, let stored = requestState.pointee else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(stored).takeRetainedValue()
    requestState.pointee = nil
    core.inFlightCount.subtract(1, ordering: .relaxed)
    guard reason == .REQUEST_TERMINATED_COMPLETED_OK, let connection else { return }
    // The connection stays open for the next request: its clocks start again.
    connectionWatch(of: connection)?.requestCompleted(at: .now)
    if context.state.withLock({ $0.isStream }) {
        // An event stream turned the idle timeout off; without this, the kept-alive connection
        // after it would never time out.
        tp_connection_set_timeout(connection, UInt32(max(0, core.configuration.connectionTimeout)))
    }
}

/// Asked by libmicrohttpd for each accepted connection: once shutdown began, it is closed at once.
func handleAcceptPolicy(_ cls: UnsafeMutableRawPointer?, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> MHD_Result {
    guard let cls else { return .YES }
    return Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().isShuttingDown.load(ordering: .acquiring) ? .NO : .YES
}

/// Called when libmicrohttpd opens a connection and when it closes it (before it closes the
/// socket): starts and stops watching the connection's receive deadline.
func handleConnectionNotice(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ event: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    if event == .CONNECTION_NOTIFY_STARTED {
        let descriptor = tp_connection_fd(connection)
        let peer = tp_connection_client_address(connection).flatMap { PeerAddress($0) }
        let (counted, admitted) = core.connectionsPerClient.opened(peer)
        let watch = core.deadlines.opened(descriptor: descriptor, countedClient: counted)
        socketContext.pointee = Unmanaged.passRetained(watch).toOpaque()
        core.connectionOpened(openCount: core.deadlines.count)
        if !admitted {
            // Over its limit: the event thread's first read sees the end of the stream and closes
            // the connection, as libmicrohttpd's own per-address limit would have at accept.
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
            core.warnRateLimited("a client reached --per-client-connection-limit \(core.configuration.perClientConnectionLimit): its new connections are closed at once")
        }
    } else if let stored = socketContext.pointee {
        let watch = Unmanaged<ConnectionWatch>.fromOpaque(stored).takeRetainedValue()
        socketContext.pointee = nil
        if let counted = watch.countedClient { core.connectionsPerClient.closed(counted) }
        core.deadlines.closed(watch)
    }
}

/// The connection's ``ConnectionWatch``, stored by ``handleConnectionNotice(_:_:_:_:)``.
private func connectionWatch(of connection: OpaquePointer) -> ConnectionWatch? {
    tp_connection_socket_context(connection).map { Unmanaged<ConnectionWatch>.fromOpaque($0).takeUnretainedValue() }
}

/// Called by libmicrohttpd with each request target before it cuts the target at `?`: records its
/// length up to the first NUL, so that the head check can tell a target cut short by a NUL byte,
/// and whether it holds a control character (in the query too, which libmicrohttpd then splits).
/// Returns NULL: its result would become the access handler's request state.
func noteRequestTarget(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guard let uri, let connection, let watch = connectionWatch(of: connection) else { return nil }
    let length = strlen(uri)
    let bytes = UnsafeRawPointer(uri).assumingMemoryBound(to: UInt8.self)
    let hasControl = (0..<length).contains { bytes[$0] < 0x20 || bytes[$0] == 0x7f }
    watch.state.withLock {
        $0.targetLength = length
        $0.targetHasControl = hasControl
    }
    return nil
}

/// Leaves URLs as sent: the router decodes each path segment itself, so an encoded `/` (`%2F`) stays
/// inside its segment and an encoded `..` cannot pass as a plain one.
func keepPercentEscapes(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ text: UnsafeMutablePointer<CChar>?) -> Int {
    guard let text else { return 0 }
    return strlen(text)
}

/// The content reader of an event stream response.
func readEventStream(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let cls, let buffer else { return -2 }
    let stream = Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue()
    // nil: finished; libmicrohttpd's MHD_CONTENT_READER_END_OF_STREAM is (ssize_t)-1.
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) ?? -1
}

/// Frees an event stream response: the connection is gone or the stream finished.
func releaseEventStream(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    let stream = Unmanaged<EventStream>.fromOpaque(cls).takeRetainedValue()
    stream.detach()
}

/// The content reader of a streamed body: bytes, 0 (suspended until written), -1 at its end, -2
/// when it was aborted.
func readBodyStream(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let cls, let buffer else { return -2 }
    let body = Unmanaged<BodyStream>.fromOpaque(cls).takeUnretainedValue()
    return body.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
}

/// Frees a streamed body's response: the connection is gone or the body ended.
func releaseBodyStream(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<BodyStream>.fromOpaque(cls).takeRetainedValue().detach()
}

/// libmicrohttpd's error messages (a peer that vanished mid-response, a refused connection), as
/// formatted by the shim, logged at debug level: they describe clients, not faults of the server.
@_cdecl("tp_forward_log_message")
func forwardLogMessage(_ cls: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {
    guard let cls, let message else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    var text = String(cString: message)
    while text.last == "\n" { text.removeLast() }
    if text.contains("resource limit") {
        // accept() failed for want of descriptors or memory: the server's fault, not a client's.
        core.warnRateLimited("libmicrohttpd: \(text) (open-file limit \(ProcessInfoLite.openFileSoftLimit ?? 0); lower --connection-limit or raise ulimit -n)")
    } else {
        core.logger.debug("libmicrohttpd: \(text)")
    }
}
