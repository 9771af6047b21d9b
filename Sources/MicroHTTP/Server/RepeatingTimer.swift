import Dispatch
import Synchronization

/// Runs a piece of work every interval on a dispatch queue of its own, until cancelled.
///
/// The server's housekeeping (request deadlines, heartbeats) runs here rather than as a task on
/// Swift's cooperative pool: that pool has a thread per core, and when requests keep it busy a
/// task that sleeps can wake many seconds late — exactly when slow clients must still be cut off.
public final class RepeatingTimer: Sendable {
    // Made and kept under the lock: a dispatch timer is not Sendable, so it never leaves this state.
    private let timer = Mutex<(any DispatchSourceTimer)?>(nil)

    /// Starts calling `work` every `interval` on a queue labelled `label`.
    public init(label: String, every interval: Duration, _ work: @escaping @Sendable () -> Void) {
        let nanoseconds = max(1, Int(interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000))
        timer.withLock { timer in
            let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
            source.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
            source.setEventHandler(handler: work)
            source.resume()
            timer = source
        }
    }

    /// Stops the timer; `work` is not called again once this returns, except for a call under way.
    public func cancel() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }

    deinit { cancel() }
}
