import Dispatch
import Synchronization

/// A serial executor on a dispatch queue of its own: the thread where page hosts assigned to it
/// run their delegates, which may block on a database.
///
/// Blocking there is the point: a delegate tree stays synchronous (no `await` between reading the
/// store and updating the table, so no actor reentrancy), while Swift's cooperative pool — a thread
/// per core that every request needs — and libmicrohttpd's event threads never wait for SQLite.
/// The queue is a serial dispatch queue, whose work runs on libdispatch's overcommitting threads,
/// never on the cooperative pool.
final class DatabaseLane: SerialExecutor {
    /// The lane's number, for logs and `/healthz`.
    let index: Int
    /// Jobs that may wait on the lane (besides the one running) before ``DatabaseLanes/admit(_:)`` refuses more.
    let queueLimit: Int
    private let queue: DispatchQueue
    private let pendingJobs = Atomic<Int>(0)

    // Marks each lane's queue with the lane's number.
    private static let indexKey = DispatchSpecificKey<Int>()

    /// Lane `index` of the lanes named `name` (the queue's label), on which at most `queueLimit` jobs wait.
    init(index: Int, name: String = "database-lane", queueLimit: Int) {
        self.index = index
        self.queueLimit = max(1, queueLimit)
        queue = DispatchQueue(label: "tablepages.\(name)-\(index)")
        queue.setSpecific(key: Self.indexKey, value: index)
    }

    /// The number of the lane the caller runs on; nil off every lane.
    static var currentIndex: Int? { DispatchQueue.getSpecific(key: indexKey) }

    /// Jobs queued or running: the lane's backlog.
    var pending: Int { pendingJobs.load(ordering: .relaxed) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    // Lets `assumeIsolated` succeed in work run with ``run(_:)``, which is on the lane too.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Runs `body` on the lane and returns its result; the caller's task waits without holding a thread.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            pendingJobs.add(1, ordering: .relaxed)
            queue.async {
                let result = Result(catching: body)
                // Counted out before the caller resumes, so its next step sees the lane as it is.
                self.pendingJobs.subtract(1, ordering: .relaxed)
                continuation.resume(with: result)
            }
        }
    }

    /// Queues `work` without waiting for it (a health probe).
    func submit(_ work: @escaping @Sendable () -> Void) {
        pendingJobs.add(1, ordering: .relaxed)
        queue.async {
            work()
            self.pendingJobs.subtract(1, ordering: .relaxed)
        }
    }
}
