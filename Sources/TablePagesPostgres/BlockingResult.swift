import Dispatch
import Synchronization

/// A result that a thread which may block (a database lane) waits for while async code produces
/// it: how the synchronous page delegates use PostgresNIO's async API. The waiting thread sleeps
/// on a semaphore; the work runs on Swift's cooperative pool and NIO's event loops, which never
/// block.
final class BlockingResult<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// Sets the result; only the first call counts.
    func fulfill(_ value: Result<Value, any Error>) {
        let isFirst = result.withLock { result in
            guard result == nil else { return false }
            result = value
            return true
        }
        if isFirst { ready.signal() }
    }

    /// Blocks until ``fulfill(_:)`` is called, then returns the value or throws the error.
    func wait() throws -> Value {
        ready.wait()
        ready.signal()
        return try result.withLock { $0! }.get()
    }

    /// Runs `operation` in a task and blocks the calling thread until it ends. Never call it from
    /// Swift's cooperative pool or an event loop: the operation may need the thread it would block.
    static func run(_ operation: @escaping @Sendable () async throws -> Value) throws -> Value {
        let box = BlockingResult()
        Task {
            do {
                box.fulfill(.success(try await operation()))
            } catch {
                box.fulfill(.failure(error))
            }
        }
        return try box.wait()
    }
}
