import Synchronization

/// One connection's progress toward its receive deadline: moved between phases by libmicrohttpd's
/// event thread, read by the ``ReceiveDeadlines`` sweeper.
final class ConnectionWatch: Sendable {
    enum Phase: Sendable, Equatable {
        /// A request's head or body is arriving; it began at `since`.
        case receiving(since: ContinuousClock.Instant)
        /// The request is fully received, or a handler owns it (suspended, or an event stream): the
        /// receive deadline does not apply.
        case answering
        /// Between requests on a kept-alive connection, since `since`. The idle timeout governs this
        /// wait; the sweeper asks the socket when the next request's first bytes arrive.
        case idle(since: ContinuousClock.Instant)
    }

    struct State {
        var phase: Phase
        /// The access handler has seen the request's head, so a late request can still be answered.
        var hasHead = false
        /// The deadline passed while the body was arriving: the access handler answers 408 to the next
        /// body bytes, and the sweeper disconnects on its next round if none come.
        var isOverdue = false
        /// The current request target's length up to its first NUL, as libmicrohttpd first saw it
        /// (``RequestHeadCheck`` compares it with where the target really ends).
        var targetLength: Int?
        /// The current request target, query included, has a control character before any NUL.
        var targetHasControl = false
    }

    /// The connection's socket; valid while the watch is registered with ``ReceiveDeadlines``.
    let descriptor: Int32
    let state: Mutex<State>
    /// The key ``ConnectionsPerClient`` counted the connection under, if it did.
    let countedClient: PeerAddress?

    init(descriptor: Int32, openedAt: ContinuousClock.Instant, countedClient: PeerAddress? = nil) {
        self.descriptor = descriptor
        self.countedClient = countedClient
        state = Mutex(State(phase: .receiving(since: openedAt)))
    }

    /// The head of a request is complete (the access handler's first call).
    func headReceived(at now: ContinuousClock.Instant) {
        state.withLock { state in
            // A head that arrived between two sweeps of an idle connection: its start is not
            // known, so its body gets a whole deadline from now.
            if case .idle = state.phase { state.phase = .receiving(since: now) }
            state.hasHead = true
        }
    }

    /// The request is received in full or answered early; a handler or response owns the connection.
    func requestReceived() {
        state.withLock { state in
            state.phase = .answering
            state.isOverdue = false
        }
    }

    /// The request ended (its response is sent); the connection waits for the next one.
    func requestCompleted(at now: ContinuousClock.Instant) {
        state.withLock { state in
            state = State(phase: .idle(since: now))
        }
    }

    /// Whether the sweeper found the body late; the access handler then answers 408.
    var isOverdue: Bool { state.withLock { $0.isOverdue } }
}
