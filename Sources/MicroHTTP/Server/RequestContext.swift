import Synchronization

/// One request's state between libmicrohttpd's calls of the access handler, stored in its `con_cls`.
final class RequestContext: Sendable {
    enum Phase: Sendable {
        /// Headers and body arriving.
        case receiving
        /// Suspended while an async handler works.
        case waiting
        /// The handler finished; queue this on the next call. Boxed (`indirect`), like ``State/request``:
        /// an event stream's context lives as long as the stream, so its size is paid per subscriber.
        indirect case ready(Response)
        /// A response is queued; ignore what else arrives.
        case answered
    }

    struct State {
        var body: [UInt8] = []
        var bodyTooLarge = false
        var phase = Phase.receiving
        /// The parsed request while its handler works; boxed so an idle context stays small.
        var request: Request? {
            get { requestBox?.request }
            set { requestBox = newValue.map(RequestBox.init) }
        }
        private var requestBox: RequestBox?
        /// The response is an event stream, which turned the connection's idle timeout off.
        var isStream = false
    }

    final class RequestBox: Sendable {
        let request: Request
        init(_ request: Request) { self.request = request }
    }

    /// When the request arrived, for the request log and the server's observer; nil when neither is
    /// on, which spares a clock read per request.
    let startedAt: ContinuousClock.Instant?
    let state = Mutex(State())

    init(startedAt: ContinuousClock.Instant?) {
        self.startedAt = startedAt
    }

    /// Hands the finished response over and resumes the connection; only the first call counts, so
    /// a late handler and a shutdown that already answered 503 cannot both resume it.
    func complete(with response: Response, resuming connection: ConnectionHandle) {
        let resumed = state.withLock { state -> Bool in
            guard case .waiting = state.phase else { return false }
            state.phase = .ready(response)
            return true
        }
        if resumed { connection.resume() }
    }
}
