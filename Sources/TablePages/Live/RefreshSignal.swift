import Synchronization

/// "Re-read the data": requested by a page's ``ChangeFeed`` from any thread, any number of times,
/// and taken once by its host. Requests made before the host is ready (while its factory still
/// reads) are kept and start a refresh as soon as the host attaches; so are requests made while
/// the host holds them (``holdWhile(_:)``: nobody watches a page that re-reads only while watched),
/// until ``resume()``.
final class RefreshSignal: Sendable {
    private struct State {
        var requested = false
        // Whether the requested refresh was started (it waits for the host otherwise).
        var started = false
        var start: (@Sendable () -> Void)?
        var isHeld: (@Sendable () -> Bool)?
    }

    private let state = Mutex(State())

    /// Asks for a refresh; starts one unless one is already started, the host is not attached yet,
    /// or the host holds requests now.
    func request() {
        let start: (@Sendable () -> Void)? = state.withLock { state in
            state.requested = true
            // Asked under the lock: a subscriber that arrives meanwhile finds the request in ``resume()``.
            guard !state.started, let start = state.start, !(state.isHeld?() ?? false) else { return nil }
            state.started = true
            return start
        }
        start?()
    }

    /// Sets how a refresh is started, and starts one if requested meanwhile and not held.
    func attach(_ start: @escaping @Sendable () -> Void) {
        state.withLock { $0.start = start }
        resume()
    }

    /// Keeps requests from starting a refresh while `isHeld` says so; it is asked under this
    /// signal's lock, so it must not request or resume.
    func holdWhile(_ isHeld: @escaping @Sendable () -> Bool) {
        state.withLock { $0.isHeld = isHeld }
    }

    /// Starts the refresh requested and not started yet, unless held (call it when the hold may have ended).
    func resume() {
        let start: (@Sendable () -> Void)? = state.withLock { state in
            guard state.requested, !state.started, let start = state.start, !(state.isHeld?() ?? false) else { return nil }
            state.started = true
            return start
        }
        start?()
    }

    /// Whether a refresh was requested and not taken yet (started or held).
    var isRequested: Bool { state.withLock { $0.requested } }

    /// Whether a refresh was requested since the last call; clears the request.
    func take() -> Bool {
        state.withLock { state in
            defer {
                state.requested = false
                state.started = false
            }
            return state.requested
        }
    }
}
