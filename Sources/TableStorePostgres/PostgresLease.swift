import Dispatch
import PostgresNIO
import Synchronization

/// One connection of a `PostgresClient`'s pool lent to a thread that may block (a database lane)
/// for as long as that thread needs it: the pool lends connections for the life of an async
/// closure, so a task holds that closure open until the thread gives the connection back.
///
///     let lease = try PostgresLease(client: client, timeout: .seconds(10))
///     defer { lease.release() }
///     try use(lease.connection)
public final class PostgresLease: Sendable {
    private enum State {
        case waiting
        case lent(PostgresConnection)
        case failed(any Error)
        // The borrower gave up or is done: a connection offered now goes straight back.
        case returned
    }

    /// The leased connection; valid until ``release()``.
    public let connection: PostgresConnection
    private let handoff: Handoff

    /// Waits, blocking this thread, for a connection from `client`'s pool, at most `timeout`. A
    /// connection the pool lends already closed (the server ended it a moment ago) is given back
    /// for another: statements sent on it would fail.
    public init(client: PostgresClient, timeout: Duration) throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let lease = Handoff()
            Task {
                do {
                    try await client.withConnection { connection in
                        guard lease.offer(connection) else { return }
                        await lease.waitForReturn()
                    }
                } catch {
                    lease.fail(PostgresError(error))
                }
            }
            let connection = try lease.take(timeout: max(deadline - ContinuousClock.now, .milliseconds(1)), whole: timeout)
            if connection.isClosed, ContinuousClock.now < deadline {
                lease.giveBack()
                continue
            }
            self.connection = connection
            handoff = lease
            return
        }
    }

    /// Gives the connection back to the pool.
    public func release() {
        handoff.giveBack()
    }

    /// The two threads' meeting point: the task that holds the pool's closure open, and the
    /// blocked thread that uses the connection.
    private final class Handoff: Sendable {
        private let state = Mutex<(State, CheckedContinuation<Void, Never>?)>((.waiting, nil))
        private let offered = DispatchSemaphore(value: 0)

        /// Hands the connection over; false when the borrower already gave up waiting.
        func offer(_ connection: PostgresConnection) -> Bool {
            let taken = state.withLock { state -> Bool in
                guard case .waiting = state.0 else { return false }
                state.0 = .lent(connection)
                return true
            }
            if taken { offered.signal() }
            return taken
        }

        func fail(_ error: any Error) {
            let waiting = state.withLock { state -> Bool in
                guard case .waiting = state.0 else { return false }
                state.0 = .failed(error)
                return true
            }
            if waiting { offered.signal() }
        }

        func take(timeout: Duration, whole: Duration) throws -> PostgresConnection {
            let milliseconds = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            _ = offered.wait(timeout: .now() + .milliseconds(milliseconds))
            return try state.withLock { state in
                switch state.0 {
                case .lent(let connection): return connection
                case .failed(let error): throw error
                case .waiting, .returned:
                    state.0 = .returned
                    // The server is down or every connection is busy.
                    throw PostgresError(description: "no PostgreSQL connection within \(whole): the server is unreachable, refuses this user, or every connection is busy")
                }
            }
        }

        func waitForReturn() async {
            await withCheckedContinuation { continuation in
                let returnedAlready = state.withLock { state -> Bool in
                    if case .returned = state.0 { return true }
                    state.1 = continuation
                    return false
                }
                if returnedAlready { continuation.resume() }
            }
        }

        func giveBack() {
            let continuation = state.withLock { state in
                state.0 = .returned
                defer { state.1 = nil }
                return state.1
            }
            continuation?.resume()
        }
    }
}
