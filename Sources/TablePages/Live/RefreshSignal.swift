import Synchronization

/// "Re-read the data": requested by a page's ``ChangeFeed`` from any thread, any number of times,
/// and taken once by its host. Requests made before the host is ready (while its factory still
/// reads) are kept and start a refresh as soon as the host attaches.
final class RefreshSignal: Sendable {
    private struct State {
        var requested = false
        var start: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Asks for a refresh; starts one unless one is already requested or the host is not attached yet.
    func request() {
        let start: (@Sendable () -> Void)? = state.withLock { state in
            guard !state.requested else { return nil }
            state.requested = true
            return state.start
        }
        start?()
    }

    /// Sets how a refresh is started, and starts one if requested meanwhile.
    func attach(_ start: @escaping @Sendable () -> Void) {
        let requested = state.withLock { state in
            state.start = start
            return state.requested
        }
        if requested { start() }
    }

    /// Whether a refresh was requested since the last call; clears the request.
    func take() -> Bool {
        state.withLock { state in
            defer { state.requested = false }
            return state.requested
        }
    }
}
