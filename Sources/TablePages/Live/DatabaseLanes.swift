import MicroHTTP
import Synchronization

/// The fixed set of lanes page hosts run on (``LiveSettings/databaseConcurrency``): at most that
/// many pages do database work at once, whatever the number of requests. A request for a page
/// whose lane already has ``LiveSettings/databaseQueueLimit`` jobs waiting is answered 503 with
/// `Retry-After` instead of joining the queue, so a flood of expensive requests costs a bounded
/// amount of waiting memory and its requests fail fast.
final class DatabaseLanes: Sendable {
    let lanes: [DatabaseLane]
    // Where the search for the least busy lane starts, so equally idle lanes take turns.
    private let nextStart = Atomic<Int>(0)

    /// `count` lanes named `name` (their queues' labels), on each of which at most `queueLimit` jobs wait.
    init(count: Int, name: String = "database-lane", queueLimit: Int) {
        lanes = (0..<max(1, count)).map { DatabaseLane(index: $0, name: name, queueLimit: queueLimit) }
    }

    /// The lane a new page host should run on: the one with the shortest backlog.
    func leastBusy() -> DatabaseLane {
        let start = nextStart.add(1, ordering: .relaxed).oldValue
        var best = lanes[start % lanes.count]
        for offset in 1..<lanes.count {
            let lane = lanes[(start + offset) % lanes.count]
            if lane.pending < best.pending { best = lane }
        }
        return best
    }

    /// Throws a 503 "busy, retry" when `lane` has as much work waiting as it may (besides the job
    /// it is running): its own ``DatabaseLane/queueLimit``, whichever lanes it is one of.
    func admit(_ lane: DatabaseLane) throws(HTTPError) {
        guard lane.pending <= lane.queueLimit else {
            throw HTTPError(503, "The server is busy with other database work; retry in a moment.", headers: ["Retry-After": "1"])
        }
    }
}
