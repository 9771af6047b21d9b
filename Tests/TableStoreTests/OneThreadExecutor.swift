import Dispatch
import Foundation
import Synchronization

/// A task executor of exactly one thread: tasks that prefer it run only there, so one that blocks
/// its thread stops all the others, as a blocked cooperative pool would, but deterministically.
final class OneThreadExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    init() {
        Thread { [self] in
            while true {
                ready.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }
}
