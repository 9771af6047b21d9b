import Foundation
import GRDB
import Logging
import PostgresNIO
import TablePagesDatabase
import TableStore
import TableStorePostgres

/// Runs a database page's queries on PostgreSQL: each read is one `REPEATABLE READ READ ONLY`
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
public struct PostgresTableExecutor: DatabaseTableExecutor {
    /// The pool the reads run on; `run()` must be running.
    let client: PostgresClient
    /// The limit each connection's `statement_timeout` was given, for the error it causes.
    let queryTimeLimit: Duration?
    let logger: Logger

    /// PostgreSQL.
    public var dialect: SQLDialect { .postgresql }

    /// An executor on `client`, whose connections were started with `statement_timeout` set to
    /// `queryTimeLimit` (see ``PostgresTablePages``).
    init(client: PostgresClient, queryTimeLimit: Duration?, logger: Logger) {
        self.client = client
        self.queryTimeLimit = queryTimeLimit
        self.logger = logger
    }

    /// Runs `body` in one read-only snapshot, on a connection leased from the pool for the read.
    public func read<T: Sendable>(_ body: (any DatabaseTableQueryRunner) throws -> T) throws -> T {
        do {
            return try withLeasedConnection { connection in
                let runner = Runner(connection: connection, logger: logger)
                try runner.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                do {
                    let value = try body(runner)
                    try runner.execute("COMMIT")
                    return value
                } catch {
                    try? runner.execute("ROLLBACK")
                    throw error
                }
            }
        } catch let error as PSQLError {
            throw PostgresReadError.classify(error, queryTimeLimit: queryTimeLimit)
        }
    }

    /// Leases a connection from the pool for as long as `body` runs on this thread: the pool's
    /// `withConnection` holds it in a task until the lane thread is done with it.
    private func withLeasedConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let leased = BlockingWait<PostgresConnection>()
        let (released, release) = AsyncStream<Never>.makeStream()
        let client = self.client
        Task {
            do {
                try await client.withConnection { connection in
                    leased.fulfill(.success(connection))
                    for await _ in released {}
                }
            } catch {
                leased.fulfill(.failure(error))
            }
        }
        defer { release.finish() }
        return try body(try leased.wait())
    }

    /// One leased connection inside a read.
    private struct Runner: DatabaseTableQueryRunner {
        let connection: PostgresConnection
        let logger: Logger

        func execute(_ sql: String) throws {
            let (connection, logger) = (connection, logger)
            _ = try BlockingWait.run {
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect().count
            }
        }

        // Every query is prepared anew (postgres-nio's unnamed statement): `keepsPrepared` is a hint.
        func forEachRow(sql: String, arguments: [DatabaseValue], keepsPrepared: Bool, _ body: ([DatabaseValue]) throws -> Void) throws {
            var binds = PostgresBindings(capacity: arguments.count)
            for argument in arguments {
                if let text = PostgresValues.text(of: argument) { binds.append(text) } else { binds.appendNull() }
            }
            let query = PostgresQuery(unsafeSQL: SQLDialect.postgresql.numberingPlaceholders(sql), binds: binds)
            let (connection, logger) = (connection, logger)
            // Collected, not streamed: the rows of one query are at most a page (1,000), and the
            // lane thread cannot iterate an async sequence.
            let rows = try BlockingWait.run {
                try await connection.query(query, logger: logger).collect().map(PostgresValues.values(of:))
            }
            for row in rows { try body(row) }
        }
    }
}
