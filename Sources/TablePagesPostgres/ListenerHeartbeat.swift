/// Whether a listening connection still delivers, for `--watch` on a database without the
/// examples' version clock: the instance notifies itself a numbered heartbeat over another
/// connection every so often and expects each back on the listening one within ``limit``. A
/// connection whose server process stopped, or behind a network that drops packets silently,
/// stays open and delivers nothing; this is how it is noticed.
///
/// Heartbeats are sent and delivered in order, so hearing one means every earlier one arrived.
///
///     var heartbeat = ListenerHeartbeat(limit: .seconds(5))
///     heartbeat.sent(1, at: .now)
///     heartbeat.heard(1)
///     heartbeat.isStalled(at: .now)   // false
struct ListenerHeartbeat: Sendable {
    /// How long a heartbeat may go unheard.
    let limit: Duration
    // Sent and not heard yet, oldest first; at most `capacity` (by then the oldest is long overdue).
    private var unheard: [(number: Int, sentAt: ContinuousClock.Instant)] = []
    private var highestHeard = Int.min
    private static let capacity = 64

    init(limit: Duration) {
        self.limit = limit
    }

    /// Records that heartbeat `number` was committed (so PostgreSQL delivers it) at `instant`.
    mutating func sent(_ number: Int, at instant: ContinuousClock.Instant) {
        guard number > highestHeard, unheard.count < Self.capacity else { return }
        unheard.append((number, instant))
    }

    /// Records that heartbeat `number` arrived on the listening connection.
    mutating func heard(_ number: Int) {
        highestHeard = max(highestHeard, number)
        unheard.removeAll { $0.number <= number }
    }

    /// Whether a heartbeat has gone unheard for longer than ``limit`` at `instant`.
    func isStalled(at instant: ContinuousClock.Instant) -> Bool {
        guard let oldest = unheard.first else { return false }
        return instant - oldest.sentAt > limit
    }

    /// Forgets every heartbeat, for a new listening connection: it hears none sent before it, and
    /// its sender numbers from 1 again.
    mutating func restart() {
        unheard = []
        highestHeard = .min
    }
}
