import Dispatch
import Synchronization

/// A result that a thread which may block (a database lane, running synchronous page code) waits
/// for while async code produces it: how the stores and the page executors use postgres-nio,
/// which is async. The waiting thread sleeps on a semaphore; the work runs on Swift's cooperative
/// pool and NIO's event loops, which never block.
///
///     let rows = try BlockingWait.run { try await connection.query("SELECT 1", logger: logger).collect() }
///
/// Or, when a task hands over a value and keeps running (a leased connection):
///
///     let leased = BlockingWait<PostgresConnection>()
///     Task { try await client.withConnection { leased.fulfill(.success($0)); … } }
///     let connection = try leased.wait()
///
/// Never wait from Swift's cooperative pool or a NIO event loop: the work waited for runs there,
/// and a pool whose threads all wait on it would wait forever.
public final class BlockingWait<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// A result not yet there.
    public init() {}

    /// Sets the result; only the first call counts, so a late failure cannot replace a value
    /// already handed over.
    public func fulfill(_ value: Result<Value, any Error>) {
        let isFirst = result.withLock { result in
            guard result == nil else { return false }
            result = value
            return true
        }
        if isFirst { ready.signal() }
    }

    /// Blocks until ``fulfill(_:)`` is called, then returns the value or throws the error.
    public func wait() throws -> Value {
        ready.wait()
        // Passed on, so that another wait (or another waiter) returns too.
        ready.signal()
        return try result.withLock { $0! }.get()
    }

    /// Starts `operation` in a task and blocks the calling thread until it is done; returns its
    /// value or rethrows its error.
    public static func run(_ operation: @escaping @Sendable () async throws -> Value) throws -> Value {
        let box = BlockingWait()
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
