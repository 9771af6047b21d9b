import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

// libmicrohttpd's callbacks. They are file-scope functions in a library file on purpose: a closure
// written at top level in main.swift is main-actor isolated in Swift 6 and traps when libmicrohttpd
// calls it from one of its worker threads.

/// The access handler: called once when headers arrive, once per body chunk, and once more when the
/// body is complete (and again after every resume). Each call is an event of the request's
/// ``RequestLifecycle``; this function reports it and performs the action that comes back. The
/// response is queued on the call after the body, never the first: queued on the first,
/// libmicrohttpd answers `Connection: close` and keep-alive is lost.
func handleAccess(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let url, let method, let uploadDataSize, let requestState else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let watch = connectionWatch(of: connection)
    let call = AccessCall(core: core, connection: connection, url: url, method: method, watch: watch)

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
        let problem = targetHasControl ? HTTPError(400, "The request target has a control character.")
            : RequestHeadCheck.problem(on: connection, url: url, targetLength: targetLength, version: version)
        let declaredLength = problem != nil ? nil
            : MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").flatMap { Int(String(cString: $0)) }
        let action = context.lifecycle.withLock {
            $0.headReceived(problem: problem, declaredBodyLength: declaredLength, bodyLimit: core.configuration.maxBodySize)
        }
        return call.perform(action, for: context)
    }
    let context = Unmanaged<RequestContext>.fromOpaque(stored).takeUnretainedValue()

    if uploadDataSize.pointee > 0 {
        let chunk = UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee)
        uploadDataSize.pointee = 0
        let isOverdue = watch?.isOverdue == true
        let action = context.lifecycle.withLock {
            $0.bodyReceived(chunk, bodyLimit: core.configuration.maxBodySize, isOverdue: isOverdue)
        }
        return call.perform(action, for: context)
    }
    let isShuttingDown = core.isShuttingDown.load(ordering: .acquiring)
    return call.perform(context.lifecycle.withLock { $0.bodyComplete(isShuttingDown: isShuttingDown) }, for: context)
}

/// One call of the access handler: what performing a ``RequestLifecycle/Action`` needs.
private struct AccessCall {
    let core: ServerCore
    let connection: OpaquePointer
    let url: UnsafePointer<CChar>
    let method: UnsafePointer<CChar>
    let watch: ConnectionWatch?

    /// Carries `action` out; the result is the access handler's.
    func perform(_ action: RequestLifecycle.Action, for context: RequestContext) -> MHD_Result {
        switch action {
        case .proceed, .resume, .restoreIdleTimeout:
            // The last two answer events of other callbacks, never the access handler's.
            return .YES
        case .refuse(let refusal):
            // From here on a response owns the connection: the receive deadline no longer applies.
            watch?.requestReceived()
            return queue(core.response(for: refusal), for: nil, context: context)
        case .refuseAndClose(let refusal):
            watch?.requestReceived()
            let response = core.response(for: refusal)
            ImmediateRefusal.send(response, on: tp_connection_fd(connection))
            let methodValue = HTTPMethod(cString: method)
            core.requestLog.record(method: methodValue, path: String(cString: url), status: response.status, startedAt: context.startedAt, request: nil)
            core.observe(method: methodValue, response: response, context: context)
            // libmicrohttpd closes the connection on MHD_NO, the rest of the body never read.
            return .NO
        case .handle(let body):
            watch?.requestReceived()
            return perform(handle(body: body, context: context), for: context)
        case .queue(let response, let request):
            return queue(response, for: request, context: context)
        case .start(let answer, let request):
            let handle = ConnectionHandle(pointer: connection)
            handle.suspend()
            core.respondLater(with: answer, to: request, context: context, connection: handle)
            return .YES
        }
    }

    /// Parses the complete request and asks the responder; returns what the lifecycle makes of it.
    private func handle(body: [UInt8], context: RequestContext) -> RequestLifecycle.Action {
        let path = String(cString: url)
        switch RequestParser.parse(
            connection: connection, method: HTTPMethod(cString: method), path: path, body: body,
            connectionMemoryLimit: core.connectionMemoryLimit, trustedProxies: core.configuration.trustedProxies
        ) {
        case .success(let request):
            let answer = core.responder.answer(to: request)
            return context.lifecycle.withLock { $0.responderAnswered(answer, to: request) }
        case .failure(let error):
            let accept = MHD_lookup_connection_value(connection, .HEADER_KIND, "Accept").map { String(cString: $0) } ?? ""
            let response = core.errorPage.apply(to: Response.error(error.status, error.message, json: path.hasSuffix(".json") || accept.contains("application/json")))
            return context.lifecycle.withLock { $0.requestUnreadable(response) }
        }
    }

    private func queue(_ response: Response, for request: Request?, context: RequestContext) -> MHD_Result {
        core.queue(response, on: connection, for: request, context: context, method: HTTPMethod(cString: method), path: String(cString: url)) ? .YES : .NO
    }
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
    let action = context.lifecycle.withLock { $0.ended() }
    guard reason == .REQUEST_TERMINATED_COMPLETED_OK, let connection else { return }
    // The connection stays open for the next request: its clocks start again.
    connectionWatch(of: connection)?.requestCompleted(at: .now)
    if case .restoreIdleTimeout = action {
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
