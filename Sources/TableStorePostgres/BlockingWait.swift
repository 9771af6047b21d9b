import Dispatch
import Synchronization

/// A result that a thread which may block (a database lane, running synchronous page code) waits
/// for while async code produces it: how the stores and the page executors use postgres-nio,
/// which is async. The waiting thread sleeps on a semaphore; the work runs on Swift's cooperative
/// pool and NIO's event loops, which never block.
///
///     let rows = try BlockingWait.run(within: .seconds(10)) { try await connection.query("SELECT 1", logger: logger).collect() }
///
/// Or, when a task hands over a value and keeps running (a leased connection):
///
///     let leased = BlockingWait<PostgresConnection>()
///     Task { try await client.withConnection { leased.fulfill(.success($0)); … } }
///     let connection = try leased.wait(within: .seconds(10))
///
/// Every wait has a bound: a statement sent on a connection that died without closing (a killed
/// server, a lost network) may never be answered, and a thread waiting for it forever would wedge
/// its database lane. Past the bound the wait throws ``WaitTimedOut``; the work itself goes on in its
/// task, so the caller closes whatever it was waiting on (the connection).
///
/// Never wait from Swift's cooperative pool or a NIO event loop: the work waited for runs there,
/// and a pool whose threads all wait on it would wait forever.
public final class BlockingWait<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// A result not yet there.
    public init() {}

    /// Sets the result; only the first call counts, so a late failure cannot replace a value
    /// already handed over. Returns whether this call set it: false after another call, or after
    /// a waiter gave up (``wait(within:unless:)`` timed out), when whoever offered a value keeps it.
    @discardableResult
    public func fulfill(_ value: Result<Value, any Error>) -> Bool {
        let isFirst = result.withLock { result in
            guard result == nil else { return false }
            result = value
            return true
        }
        if isFirst { ready.signal() }
        return isFirst
    }

    /// Blocks until ``fulfill(_:)`` is called, then returns the value or throws the error; throws
    /// ``WaitTimedOut`` when that takes longer than `timeout`, or as soon as `abandoned` (asked every
    /// ``abandonCheckInterval``) has said true twice in a row — the thing waited on is gone (a
    /// closed connection, whose statements postgres-nio may never answer). A result that comes
    /// after the wait gave up is dropped (a ``fulfill(_:)`` then returns false).
    public func wait(within timeout: Duration, unless abandoned: (() -> Bool)? = nil) throws -> Value {
        let deadline = ContinuousClock.now + timeout
        var abandonedChecks = 0
        while true {
            let remaining = deadline - ContinuousClock.now
            let slice = abandoned == nil ? remaining : min(remaining, Self.abandonCheckInterval)
            if slice > .zero, ready.wait(timeout: .now() + .nanoseconds(Self.nanoseconds(slice))) == .success { break }
            let timedOut = ContinuousClock.now >= deadline
            if !timedOut {
                // Twice: a failure on its way (the closed connection's own error) is the better answer.
                abandonedChecks = abandoned?() == true ? abandonedChecks + 1 : 0
                guard abandonedChecks >= 2 else { continue }
            }
            let gaveUp = result.withLock { result in
                guard result == nil else { return false }
                result = .failure(WaitTimedOut(limit: timeout))
                return true
            }
            if gaveUp { throw WaitTimedOut(limit: timeout) }
            // Fulfilled between the timeout and the lock: its signal is there to take.
            ready.wait()
            break
        }
        // Passed on, so that another wait (or another waiter) returns too.
        ready.signal()
        return try result.withLock { $0! }.get()
    }

    /// How often ``wait(within:unless:)`` asks whether the wait is abandoned.
    public static var abandonCheckInterval: Duration { .milliseconds(50) }

    /// Starts `operation` in a task and blocks the calling thread until it is done; returns its
    /// value or rethrows its error, or throws ``WaitTimedOut`` (and cancels the task) when it takes
    /// longer than `timeout` or `abandoned` says the wait is pointless (see ``wait(within:unless:)``).
    public static func run(within timeout: Duration, unless abandoned: (() -> Bool)? = nil, _ operation: @escaping @Sendable () async throws -> Value) throws -> Value {
        let box = BlockingWait()
        let task = Task {
            do {
                box.fulfill(.success(try await operation()))
            } catch {
                box.fulfill(.failure(error))
            }
        }
        do {
            return try box.wait(within: timeout, unless: abandoned)
        } catch let error as WaitTimedOut {
            task.cancel()
            throw error
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        // Saturates: a bound too long for Int nanoseconds is as good as none.
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return Int.max }
        let (total, overflowTotal) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowTotal ? Int.max : Int(max(0, total))
    }
}
