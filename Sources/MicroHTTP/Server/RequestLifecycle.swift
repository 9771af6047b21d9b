/// One request's life on a libmicrohttpd connection, from its head to its answer: the states it
/// passes through and, for each event libmicrohttpd or a handler reports, the action to take.
///
/// libmicrohttpd calls the access handler once when the head arrives, once per body chunk, and once
/// more when the body is complete (and again after every resume); a deferred handler finishes on
/// another thread; shutdown answers what still waits. Each of these is an event here, and the
/// callbacks only report events and perform the actions that come back, so that the rules — one
/// answer per request, never a queue after it, a resume only of a suspended connection — hold in
/// one place and can be checked without a socket.
///
///     .awaitingHead ─head─▶ .receiving ─complete─▶ .handling ─now─▶ .answered ─end─▶ .ended
///                               │                      └─later─▶ .waiting ─finished─▶ .ready ─complete─▶ .answered
///                               └─refused (head, too large, too slow, shutting down)──────────────────▶ .answered
struct RequestLifecycle: Sendable {
    /// Where the request is.
    enum State: Sendable {
        /// The context exists; the head's first call has not been reported.
        case awaitingHead
        /// Headers in; body chunks arriving.
        case receiving(body: [UInt8])
        /// The whole request is here and the access handler is asking the responder (within one call).
        case handling
        /// Suspended while a deferred handler works. Boxed (`indirect`) so an idle context stays small.
        indirect case waiting(Request)
        /// The handler finished; its response is queued on libmicrohttpd's next call, which the resume
        /// brings (a response queued from another thread would race the event thread).
        indirect case ready(Response, Request)
        /// A response is queued or sent; `isStream` when it is an event stream, which turned the
        /// connection's idle timeout off.
        case answered(isStream: Bool)
        /// libmicrohttpd reported the request's end; nothing may touch the connection for it any more.
        case ended
    }

    /// An answer the server makes itself, without asking the responder.
    enum Refusal: Sendable, Equatable {
        /// The head is malformed or over a limit (``RequestHeadCheck``).
        case badHead(HTTPError)
        /// The declared or received body is over ``ServerConfiguration/maxBodySize``.
        case bodyTooLarge
        /// The body was still arriving after ``ServerConfiguration/requestTimeout``.
        case receiveTimedOut
        /// Shutdown began before the request was handled.
        case shuttingDown
    }

    /// What the caller does after an event.
    enum Action: Sendable {
        /// Nothing now; libmicrohttpd calls again (the access handler returns `MHD_YES`).
        case proceed
        /// Queue the server's own answer: before the body (libmicrohttpd then closes the connection
        /// instead of reading it) or after all of it.
        case refuse(Refusal)
        /// Write the answer to the socket and close: the body is arriving, when libmicrohttpd refuses
        /// a queued response (``ImmediateRefusal``).
        case refuseAndClose(Refusal)
        /// The request is complete: parse it with `body`, ask the responder, and report what it said
        /// (``responderAnswered(_:to:)`` or ``requestUnreadable(_:)``).
        case handle(body: [UInt8])
        /// Queue `response`; `request` is what the request log reads, nil when it was never parsed.
        case queue(Response, for: Request?)
        /// Suspend the connection and start the responder's deferred answer to the request.
        case start(HTTPAnswer, for: Request)
        /// Resume the suspended connection (from any thread), so its next call queues the response.
        case resume
        /// The event stream turned the idle timeout off: turn it on again for the kept-alive
        /// connection's next request.
        case restoreIdleTimeout
    }

    private(set) var state = State.awaitingHead

    /// The access handler's first call: the head is complete. `problem` is what the head check
    /// found; `declaredBodyLength` the `Content-Length`, if any, compared with `bodyLimit` before a
    /// byte of the body is read.
    mutating func headReceived(problem: HTTPError?, declaredBodyLength: Int?, bodyLimit: Int) -> Action {
        guard case .awaitingHead = state else { return .proceed }
        if let problem {
            state = .answered(isStream: false)
            return .refuse(.badHead(problem))
        }
        if let declaredBodyLength, declaredBodyLength > bodyLimit {
            state = .answered(isStream: false)
            return .refuse(.bodyTooLarge)
        }
        state = .receiving(body: [])
        return .proceed
    }

    /// A chunk of the body arrived. A body without a declared length (chunked) that passes
    /// `bodyLimit`, or one still arriving when `isOverdue`, is refused at once, the rest never read.
    mutating func bodyReceived(_ chunk: UnsafeRawBufferPointer, bodyLimit: Int, isOverdue: Bool) -> Action {
        guard case .receiving(var body) = state else { return .proceed }
        if body.count + chunk.count > bodyLimit {
            state = .answered(isStream: false)
            return .refuseAndClose(.bodyTooLarge)
        }
        if isOverdue {
            state = .answered(isStream: false)
            return .refuseAndClose(.receiveTimedOut)
        }
        // Out of the enum while it grows, so the append does not copy the buffer (swift-nio's way).
        state = .handling
        body.append(contentsOf: chunk)
        state = .receiving(body: body)
        return .proceed
    }

    /// libmicrohttpd's call after the body (or after a resume): the request is handled now, or a
    /// finished handler's response is queued.
    mutating func bodyComplete(isShuttingDown: Bool) -> Action {
        switch state {
        case .receiving(let body):
            if isShuttingDown {
                // A request on a kept-alive connection after shutdown began: answered at once, so
                // that no connection is suspended when the daemon stops.
                state = .answered(isStream: false)
                return .refuse(.shuttingDown)
            }
            state = .handling
            return .handle(body: body)
        case .ready(let response, let request):
            state = .answered(isStream: false)
            return .queue(response, for: request)
        case .awaitingHead, .handling, .waiting, .answered, .ended:
            return .proceed
        }
    }

    /// The responder's answer to the request ``Action/handle(body:)`` asked about.
    mutating func responderAnswered(_ answer: HTTPAnswer, to request: Request) -> Action {
        guard case .handling = state else { return .proceed }
        if case .now(let response) = answer {
            state = .answered(isStream: false)
            return .queue(response, for: request)
        }
        state = .waiting(request)
        return .start(answer, for: request)
    }

    /// The request could not be parsed: `response` says why.
    mutating func requestUnreadable(_ response: Response) -> Action {
        guard case .handling = state else { return .proceed }
        state = .answered(isStream: false)
        return .queue(response, for: nil)
    }

    /// A deferred handler (or shutdown, answering for it) finished with `response`, on any thread.
    /// Only the first counts, so a late handler and a shutdown that already answered 503 cannot both
    /// resume the connection.
    mutating func handlerFinished(_ response: Response) -> Action {
        guard case .waiting(let request) = state else { return .proceed }
        state = .ready(response, request)
        return .resume
    }

    /// The queued response is an event stream.
    mutating func streamQueued() {
        if case .answered = state { state = .answered(isStream: true) }
    }

    /// libmicrohttpd reported the request's end (answered or not).
    mutating func ended() -> Action {
        let wasStream = if case .answered(isStream: true) = state { true } else { false }
        state = .ended
        return wasStream ? .restoreIdleTimeout : .proceed
    }
}
