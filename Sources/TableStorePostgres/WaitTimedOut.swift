import Synchronization

/// A wait on PostgreSQL that passed its bound: ``BlockingWait`` for a blocked thread,
/// ``WaitTimedOut/run(within:_:)`` for a task.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// The bound.
    public let limit: Duration

    /// A wait that gave up after `limit`.
    public init(limit: Duration) {
        self.limit = limit
    }

    /// "no answer within 10.0 seconds".
    public var description: String { "no answer within \(limit)" }

    /// Runs `operation` in a task of its own and returns its value, or throws ``WaitTimedOut``
    /// after `limit` (and cancels the task). Unlike a task group, it does not wait for an
    /// operation that ignores cancellation: postgres-nio (1.33) never answers a statement sent on a
    /// connection that had just closed, and a loop awaiting one would stop for good.
    ///
    ///     let rows = try await WaitTimedOut.run(within: .seconds(10)) { try await client.query("SELECT 1").collect() }
    public static func run<T: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let settled = Settled<T>()
        return try await withCheckedThrowingContinuation { continuation in
            settled.waiter.withLock { $0 = continuation }
            let work = Task {
                let result: Result<T, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                settled.waiter.withLock { $0.take() }?.resume(with: result)
            }
            let timer = Task {
                try await Task.sleep(for: limit)
                if let continuation = settled.waiter.withLock({ $0.take() }) {
                    work.cancel()
                    continuation.resume(throwing: WaitTimedOut(limit: limit))
                }
            }
            // The timer is not needed once the work is done.
            Task {
                _ = await work.result
                timer.cancel()
            }
        }
    }

    /// The caller waiting in ``run(within:_:)``, resumed once, by the work or by the timer.
    private final class Settled<T: Sendable>: Sendable {
        let waiter = Mutex<CheckedContinuation<T, any Error>?>(nil)
    }
}
