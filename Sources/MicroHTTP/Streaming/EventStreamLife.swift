/// An event stream's life on its connection: the states it passes through and, for each event (a
/// write, a read by libmicrohttpd, the end, the client gone), what to do.
///
/// The buffer stays in ``EventStream``; this says only whether the connection sleeps, must be woken,
/// may take more bytes or has ended, so those rules hold in one place and are tested without a socket.
///
///     .unattached ─attach─▶ .awake ◀─write, finish─▶ .asleep ─client gone─▶ .peerGone
///                              └─────────────── detach (from any state) ─────────────▶ .detached
struct EventStreamLife: Sendable {
    /// Where the stream is.
    enum State: Sendable {
        /// Made by a handler, not yet queued on a connection. `finishing`: ``EventStream/finish()``
        /// was called, so the stream ends once its buffer is sent.
        case unattached(finishing: Bool)
        /// On a connection libmicrohttpd is processing, which reads the buffer.
        case awake(ConnectionHandle, descriptor: Int32, finishing: Bool)
        /// The buffer ran dry and the connection is suspended, costing no CPU until a write. Its
        /// socket is valid meanwhile (libmicrohttpd closes no suspended connection).
        case asleep(ConnectionHandle, descriptor: Int32)
        /// The client closed its end while the stream slept; the connection was woken to end.
        case peerGone
        /// The connection is gone or the stream was refused: nothing more is sent.
        case detached
    }

    /// What a read by libmicrohttpd does.
    enum Read: Sendable {
        /// Copy buffered bytes.
        case copy
        /// Nothing to send yet: return 0, the connection already asleep or not yet attached.
        case wait
        /// Nothing to send: suspend the connection (returning 0 without suspending would make
        /// libmicrohttpd poll in a busy loop).
        case sleep(ConnectionHandle)
        /// The stream ended and its buffer is sent: end the response.
        case end
        /// The client went away: end the connection without a last chunk.
        case abort
    }

    private(set) var state = State.unattached(finishing: false)

    /// Whether writes are refused: the stream ended, is ending, or its client went away.
    var isClosed: Bool {
        switch state {
        case .unattached(let finishing), .awake(_, _, let finishing): finishing
        case .asleep: false
        case .peerGone, .detached: true
        }
    }

    /// Whether the connection let go of the stream (``detach()``).
    var isDetached: Bool {
        if case .detached = state { true } else { false }
    }

    /// The socket of the stream's connection while it sleeps, to check whether its client left.
    var sleepingDescriptor: Int32? {
        if case .asleep(_, let descriptor) = state, descriptor >= 0 { descriptor } else { nil }
    }

    /// The stream was queued on `connection`.
    mutating func attach(to connection: ConnectionHandle, descriptor: Int32) {
        guard case .unattached(let finishing) = state else { return }
        state = .awake(connection, descriptor: descriptor, finishing: finishing)
    }

    /// Bytes are to be written: false when the stream takes no more; the connection to resume when
    /// it sleeps (the bytes then wake it).
    mutating func write() -> (accepted: Bool, wake: ConnectionHandle?) {
        if isClosed { return (false, nil) }
        return (true, wake(finishing: false))
    }

    /// ``EventStream/finish()``: ends the stream once its buffer is sent. Returns the connection to
    /// resume when it sleeps.
    mutating func finish() -> ConnectionHandle? {
        switch state {
        case .unattached: state = .unattached(finishing: true)
        case .awake(let connection, let descriptor, _): state = .awake(connection, descriptor: descriptor, finishing: true)
        case .asleep: return wake(finishing: true)
        case .peerGone, .detached: break
        }
        return nil
    }

    /// libmicrohttpd asks for bytes; `hasBytes` says whether any are buffered.
    mutating func read(hasBytes: Bool) -> Read {
        switch state {
        case .peerGone: return .abort
        case _ where hasBytes: return .copy
        case .unattached(let finishing): return finishing ? .end : .wait
        case .awake(let connection, let descriptor, let finishing):
            if finishing { return .end }
            state = .asleep(connection, descriptor: descriptor)
            return .sleep(connection)
        case .asleep: return .wait
        case .detached: return .end
        }
    }

    /// The client closed the connection while the stream slept: returns the connection to resume so
    /// that libmicrohttpd ends it now, rather than at the next heartbeat. Nothing when it is awake
    /// (it then finds the close itself).
    mutating func peerWentAway() -> ConnectionHandle? {
        guard case .asleep(let connection, _) = state else { return nil }
        state = .peerGone
        return connection
    }

    /// The connection is gone, or the stream was refused before it was queued.
    mutating func detach() {
        state = .detached
    }

    private mutating func wake(finishing: Bool) -> ConnectionHandle? {
        guard case .asleep(let connection, let descriptor) = state else { return nil }
        state = .awake(connection, descriptor: descriptor, finishing: finishing)
        return connection
    }
}
