import Dispatch
import Foundation
import Testing
import TableStore

/// ``SQLStore/transactionOnOwnThread(_:)``: an async write that keeps the blocking transaction off
/// Swift's cooperative pool.
@Suite("Async writes run on a thread of their own")
struct OwnThreadTests {
    @Test("The transaction commits, and its value and errors come back")
    func transactionCommits() async throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        let changed = try await store.transactionOnOwnThread { db in
            try db.execute("INSERT INTO item (title) VALUES (?)", [.text("Dune")])
            return 1
        }
        #expect(changed == 1)
        #expect(try store.snapshot { db in try db.rows("SELECT title FROM item", []).map { try $0.string(0) } } == ["Dune"])
        await #expect(throws: (any Error).self) {
            try await store.transactionOnOwnThread { db in try db.execute("INSERT INTO nowhere VALUES (1)", []) }
        }
    }

    @Test("A write blocked in its transaction leaves the executor's one thread free: the task that awaits it goes on")
    func blockedWriteLeavesTheThreadFree() async throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Should the write hold the thread after all, this thread frees it, so that the test fails
        // by its clock instead of hanging.
        Thread {
            Thread.sleep(forTimeInterval: 10)
            release.signal()
        }.start()
        // Every task below runs on one thread only: a write that blocked the thread of the task that
        // called it (the cooperative pool's, without this executor) would stop every other task.
        try await withTaskExecutorPreference(OneThreadExecutor()) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await store.transactionOnOwnThread { _ in
                        started.signal()
                        release.wait()
                    }
                }
                let clock = ContinuousClock()
                let begin = clock.now
                _ = try await OwnThread.run { started.wait(timeout: .now() + 10) }
                let waited = clock.now - begin
                #expect(waited < .seconds(5), "this task waited \(waited) for the executor's thread while the write was blocked")
                release.signal()
                try await group.waitForAll()
            }
        }
    }
}
