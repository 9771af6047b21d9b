import Dispatch
import Synchronization

/// Runs async work and blocks the calling thread until it finishes: how a database lane (a thread
/// that may block, running synchronous page code) waits for postgres-nio, which is async.
///
///     let rows = try BlockingWait.run { try await connection.query("SELECT 1", logger: logger).collect() }
///
/// Never call it from Swift's cooperative pool or a NIO event loop: the work it waits for runs
/// there, and a pool whose threads all wait on it would wait forever.
public enum BlockingWait {
    /// Starts `operation` in a task and returns its result once it is done; rethrows its error.
    public static func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        // The task stored its result before it signalled.
        return try outcome.withLock { $0! }.get()
    }
}
