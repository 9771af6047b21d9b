import Foundation
import Logging
import PostgresNIO
import TablePagesDatabase
import TableStore
import TableStorePostgres

/// The ``/TableStore/SQLReader`` of PostgreSQL database pages: each snapshot is one `REPEATABLE READ READ ONLY`
/// transaction on a connection of `client`'s pool, so a page's counts and rows agree as they do
/// in a SQLite snapshot. The lane thread waits (``/TableStorePostgres/BlockingWait``) while PostgresNIO works.
///
/// The query time limit is each connection's `statement_timeout` (set when it connects): it
/// bounds every statement of a read, not the read as a whole as SQLite's does; a statement
/// stopped by it is ``/TableStore/QueryTimeLimitExceeded``, a 503 like SQLite's.
///
/// Values travel as text both ways where PostgreSQL's types go beyond SQLite's: a value bound
/// for a column is its text cast to the column's type (``/TableStore/SQLDialect``), and a
/// column of another type than integer, real, text or bytea is read as its text.
public struct PostgresTableExecutor: SQLReader {
    /// The pool the reads run on; `run()` must be running.
    let client: PostgresClient
    /// The limit each connection's `statement_timeout` was given, for the error it causes.
    let queryTimeLimit: Duration?
    /// How long a read waits for a connection of the pool.
    let connectionWait: Duration
    /// How long one statement waits for the server's answer before its connection is given up
    /// as dead: the time limit (the server cancels the statement then) and a margin.
    var answerWait: Duration { (queryTimeLimit ?? .seconds(30)) + .seconds(5) }
    let logger: Logger

    /// PostgreSQL.
    public var dialect: SQLDialect { .postgresql }

    /// An executor on `client`, whose connections were started with `statement_timeout` set to
    /// `queryTimeLimit` (see ``PostgresTablePages``).
    init(client: PostgresClient, queryTimeLimit: Duration?, connectionWait: Duration = .seconds(10), logger: Logger) {
        self.client = client
        self.queryTimeLimit = queryTimeLimit
        self.connectionWait = connectionWait
        self.logger = logger
    }

    /// Runs `body` in one read-only snapshot, on a connection leased from the pool for the read.
    /// Every wait is bounded: for a connection (`connectionWait`) and for each answer
    /// (`answerWait`); a connection that failed or went unanswered is closed, not reused.
    public func snapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        do {
            return try inTransaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
        } catch let error as PSQLError {
            throw PostgresReadError.classify(error, queryTimeLimit: queryTimeLimit)
        }
    }

    /// Runs `body` in a transaction begun by `begin` on a connection leased for it, committed
    /// when `body` returns, rolled back when it throws. PostgreSQL's errors are thrown as they are,
    /// but for no connection within the wait (``PostgresReadError/unreachable(_:)``). A write
    /// (`write`) whose audit entries recorded its id, and whose connection fails once `COMMIT` was
    /// sent, is looked up (``settleCommit(of:after:)``) once its dead connection was given back
    /// (the lookup may need that connection's place in the pool): it returns if the write committed.
    func inTransaction<T: Sendable>(begin: String, write: PostgresWriteMark? = nil, _ body: (any SQLSession) throws -> T) throws -> T {
        switch try attempt(begin: begin, write: write, connectionWait: connectionWait, answerWait: answerWait, body) {
        case .ended(let value):
            return value
        case .lostAtCommit(let value, let ticket, let failure):
            try settleCommit(of: ticket, after: failure)
            return value
        }
    }

    /// How one attempt of `inTransaction(begin:write:_:)` ended, its lease given back.
    private enum Attempt<T> {
        /// Committed (or, for a read, done).
        case ended(T)
        /// The connection failed once `COMMIT` was sent, for a write whose id the trail recorded.
        case lostAtCommit(T, PostgresWriteMark.Ticket, any Error)
    }

    /// One transaction on a connection leased for at most `connectionWait`, each statement waiting
    /// at most `answerWait`; the lease is given back before it returns or throws.
    private func attempt<T: Sendable>(
        begin: String, write: PostgresWriteMark?, connectionWait: Duration, answerWait: Duration, _ body: (any SQLSession) throws -> T
    ) throws -> Attempt<T> {
        do {
            let lease = try PostgresLease(client: client, timeout: connectionWait)
            defer { lease.release() }
            let runner = Runner(connection: lease.connection, answerWait: answerWait, logger: logger, write: write)
            var committing: (value: T, ticket: PostgresWriteMark.Ticket?)?
            do {
                try runner.command(begin)
                let value = try body(runner)
                committing = (value, write?.ticket)
                try runner.command("COMMIT")
                return .ended(value)
            } catch {
                if Self.connectionFailed(error) {
                    runner.closeConnection()
                    if let committing, let ticket = committing.ticket {
                        return .lostAtCommit(committing.value, ticket, error)
                    }
                } else {
                    do { try runner.command("ROLLBACK") } catch { runner.closeConnection() }
                }
                throw error
            }
        } catch let error as TableStorePostgres.PostgresError where error.isConnectionFailure {
            // No connection within the wait.
            throw PostgresReadError.unreachable(error)
        }
    }

    /// Learns whether the write of `ticket`, whose `COMMIT` went unanswered (`failure`), committed,
    /// by its write id in the audit trail, asking on other connections for up to `connectionWait`
    /// in all, each wait (for a connection, for an answer) cut to what is left of it (again while
    /// the transaction has not ended: the server has not noticed the connection's loss). Returns
    /// if it did; throws a retryable ``/TablePagesDatabase/TableWriteError/failed(message:retryable:)``
    /// (503) saying nothing was written if it did not, and one that is not retryable (500) saying
    /// so when that cannot be learnt (PostgreSQL unreachable, or the trail's bound dropped it).
    func settleCommit(of ticket: PostgresWriteMark.Ticket, after failure: any Error) throws {
        let deadline = ContinuousClock.now + connectionWait
        let name = "transaction \(ticket.transactionID) (write id \(ticket.writeID))"
        let failure = TableStorePostgres.PostgresError(failure)
        let lookup = PostgresWriteMark.lookup(in: DatabaseAuditTrail.postgresTable)
        let arguments = PostgresWriteMark.lookupArguments(ticket)
        var lastProblem = "it is still in progress"
        lookingUp: while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            do {
                let answer = try attempt(begin: "BEGIN", write: nil, connectionWait: left, answerWait: min(answerWait, left)) { try $0.row(lookup, arguments) }
                if case .ended(let row?) = answer {
                    switch PostgresWriteMark.outcome(found: try row.bool(0), isOver: try row.bool(1), isPastServer: try row.bool(2), droppedPast: try row.bool(3)) {
                    case .committed:
                        logger.warning("a write's COMMIT went unanswered (\(failure)); \(name) was committed after all: its write id is in the audit trail")
                        return
                    case .notCommitted(let reason):
                        logger.warning("a write's COMMIT went unanswered (\(failure)); \(name) was not committed: \(reason)")
                        throw TableWriteError.failed(message: "The connection to PostgreSQL was lost as the change was committed, and it was not written; try again.", retryable: true)
                    case .inProgress:
                        lastProblem = "it is still in progress"
                    case .unknown:
                        lastProblem = "its write id is not in the audit trail, which dropped entries past its own since (--audit-max-rows)"
                        break lookingUp
                    }
                }
            } catch let error as TableWriteError {
                throw error
            } catch {
                // Unreachable, or refused: whatever happened, it is not an answer.
                lastProblem = TableStorePostgres.PostgresError(error).description
            }
            let pause = min(.milliseconds(100), deadline - ContinuousClock.now)
            if pause > .zero { Thread.sleep(forTimeInterval: pause / .seconds(1)) }
        }
        logger.error("a write's COMMIT went unanswered (\(failure)) and whether \(name) committed could not be learnt: \(lastProblem)")
        throw TableWriteError.failed(
            message: "The connection to PostgreSQL was lost as the change was committed, and whether it was written cannot be told yet: reload the page before trying again.",
            retryable: false
        )
    }

    /// Whether `error` leaves the connection of no more use (rather than the server refusing one statement).
    private static func connectionFailed(_ error: any Error) -> Bool {
        switch error {
        case let error as PostgresReadError: error.status == 503
        case let error as PSQLError: TableStorePostgres.PostgresError(error).isConnectionFailure
        default: false
        }
    }

    /// One leased connection inside a read.
    private struct Runner: IdentifiedWriteSession {
        let connection: PostgresConnection
        let answerWait: Duration
        let logger: Logger
        /// The write's mark, nil in a read.
        let write: PostgresWriteMark?

        /// The write's id (a read records nothing: it gets an id of its own, looked up never).
        var writeID: String {
            write?.writeID ?? UUID().uuidString.lowercased()
        }

        func recorded(transactionID: Int64, lastEntry: Int64) {
            write?.record(transactionID: transactionID, lastEntry: lastEntry)
        }

        func execute(_ sql: String, _ arguments: [SQLValue]) throws {
            try forEachRow(sql, arguments, keepsPrepared: false) { _ in }
        }

        /// Runs `sql` by PostgreSQL's simple protocol (no arguments: `BEGIN`, `COMMIT`, `ROLLBACK`).
        func command(_ sql: String) throws {
            let (connection, logger) = (connection, logger)
            _ = try waitForAnswer {
                try await connection.allRows(PostgresQuery(unsafeSQL: sql), logger: logger).count
            }
        }

        // Every query is prepared anew (postgres-nio's unnamed statement): `keepsPrepared` is a hint.
        func forEachRow(_ sql: String, _ arguments: [SQLValue], keepsPrepared: Bool, _ body: (SQLRow) throws -> Void) throws {
            var binds = PostgresBindings(capacity: arguments.count)
            for argument in arguments {
                if let text = PostgresValues.text(of: argument) { binds.append(text) } else { binds.appendNull() }
            }
            let query = PostgresQuery(unsafeSQL: SQLDialect.postgresql.numberingPlaceholders(sql), binds: binds)
            let (connection, logger) = (connection, logger)
            // Collected, not streamed: the rows of one query are at most a page (1,000), and the
            // lane thread cannot iterate an async sequence.
            let rows = try waitForAnswer {
                try await connection.allRows(query, logger: logger).map { SQLRow(try $0.map(SQLValue.init(cell:))) }
            }
            for row in rows { try body(row) }
        }

        /// Runs `operation`, waiting at most ``answerWait``, and not at all on a closed connection.
        private func waitForAnswer<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
            do {
                return try connection.blockingAnswer(within: answerWait, logger: logger, operation)
            } catch let error as PostgresUnanswered {
                throw PostgresReadError(status: 503, reason: error.description)
            }
        }

        /// Closes the connection without waiting, so that the pool does not lend it again.
        func closeConnection() {
            connection.closeInBackground(logger: logger)
        }
    }
}
