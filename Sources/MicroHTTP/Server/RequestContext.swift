import Synchronization

/// One request's state between libmicrohttpd's calls of the access handler, stored in its `con_cls`.
final class RequestContext: Sendable {
    /// When the request arrived, for the request log and the server's observer; nil when neither is
    /// on, which spares a clock read per request.
    let startedAt: ContinuousClock.Instant?
    /// Where the request is; the event thread and a deferred handler's thread both report to it.
    let lifecycle = Mutex(RequestLifecycle())

    init(startedAt: ContinuousClock.Instant?) {
        self.startedAt = startedAt
    }

    /// Hands the finished response over and resumes the connection; only the first call counts, so
    /// a late handler and a shutdown that already answered 503 cannot both resume it.
    func complete(with response: Response, resuming connection: ConnectionHandle) {
        if case .resume = lifecycle.withLock({ $0.handlerFinished(response) }) { connection.resume() }
    }
}
