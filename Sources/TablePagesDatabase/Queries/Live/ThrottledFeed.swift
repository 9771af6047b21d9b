import Dispatch
import Synchronization
import TablePages

/// A `ChangeFeed` that passes on its source's changes at most once per `interval`:
/// a change within the interval after the last one passed on is passed on when the interval ends
/// (once, however many came), so a live query re-runs at most `1 / interval` times a second and
/// never misses the last change.
final class ThrottledFeed: Sendable {
    /// The feed the pages follow.
    let feed = ChangeFeed()
    private let interval: Duration
    private struct State {
        var last: ContinuousClock.Instant?
        var pending = false
    }
    private let state = Mutex(State())

    init(interval: Duration) {
        self.interval = interval
    }

    /// A change of the source.
    func notify() {
        let now = ContinuousClock.now
        let delay: Duration? = state.withLock { state in
            if state.pending { return nil }
            guard let last = state.last, now - last < interval else {
                state.last = now
                return .zero
            }
            state.pending = true
            return last + interval - now
        }
        guard let delay else { return }
        if delay == .zero {
            feed.notify()
            return
        }
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            state.withLock { state in
                state.pending = false
                state.last = ContinuousClock.now
            }
            feed.notify()
        }
    }
}
