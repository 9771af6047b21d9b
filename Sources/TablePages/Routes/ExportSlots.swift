import Synchronization

/// How many CSV or NDJSON exports run at once: each holds a background thread while it reads
/// the database, so an unbounded number would take every thread dispatch has. An export past the
/// limit is answered 503 with `Retry-After` instead.
///
///     guard slots.take() else { throw HTTPError(503, …) }
///     defer { slots.give() }
final class ExportSlots: Sendable {
    /// The most exports at once.
    let limit: Int
    private let running = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot; false when all are taken.
    func take() -> Bool {
        var current = running.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = running.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives a slot back.
    func give() {
        running.subtract(1, ordering: .releasing)
    }

    /// Exports running now.
    var count: Int { running.load(ordering: .relaxed) }
}
