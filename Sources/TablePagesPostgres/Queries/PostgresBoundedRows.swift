import Logging
import PostgresNIO
import Synchronization
import TablePagesDatabase
import TableStore

/// Reads a visitor's query on PostgreSQL under ``/TablePagesDatabase/QueryLimits/bytes``: each
/// row as it arrives (never the whole answer first), stopping at the row that would pass the
/// limit; and PostgreSQL itself refuses to send a row larger than the limit (``sized(_:bytes:)``),
/// since postgres-nio holds a whole row in memory before it hands it over.
///
///     let result = try await PostgresBoundedRows.read(query, limits: limits, rowLinkBytes: 0, on: connection, logger: logger)
enum PostgresBoundedRows {
    /// The start of the error PostgreSQL raises for a row larger than the limit.
    static let marker = "TablePages: a row of "

    /// `limited` (a ``PostgresQueryRunner/limited(_:rows:)`` query, its parameters numbered) as a
    /// query whose rows PostgreSQL checks before sending, nil for `EXPLAIN` (which cannot be a
    /// subquery): a row whose stored size (`pg_column_size`, which counts a computed value at
    /// its length) or text form (`octet_length(row::text)`: a compressed or toasted value counts
    /// as what is sent) passes `bytes` raises an error that says so (``marker``). The check
    /// depends on each row, so the planner cannot fold it into an error before the first row.
    ///
    /// The rows that fit are not summed here: a running sum (a window) in the same query made
    /// PostgreSQL 15 read every row up to the row limit before sending the first.
    static func sized(_ limited: String, bytes: Int) -> String? {
        guard PostgresQueryRunner.firstWord(of: limited) != "explain" else { return nil }
        func refusal(_ size: String) -> String {
            "('\(marker)' || \(size) || ' bytes is larger than the size limit')::pg_catalog.int4 = 0"
        }
        let stored = "pg_catalog.pg_column_size(tablepages_sized.*)"
        let text = "pg_catalog.octet_length(tablepages_sized::pg_catalog.text)"
        return "SELECT tablepages_sized.* FROM (\n" + limited + "\n) AS tablepages_sized WHERE CASE"
            + " WHEN \(stored) > \(bytes) THEN \(refusal(stored))"
            + " WHEN \(text) > \(bytes) THEN \(refusal(text)) ELSE true END"
    }

    /// Runs `query` (a ``sized(_:bytes:)`` one) and keeps its rows while they fit `limits`
    /// (``/TablePagesDatabase/QueryResultLimiter``, with each row's links of `rowLinkBytes`). The rows are taken on the event loop as they
    /// arrive (postgres-nio's `onRow`, which never waits for a consumer's demand: see
    /// `PostgresConnection.allRows`); the first that does not fit stops the reading, and the
    /// rest of the answer is drained by postgres-nio without being kept (PostgreSQL runs on up to
    /// the row limit or the time limit, `statement_timeout`). A row PostgreSQL refused as too
    /// large ends the result there (truncated), or is refused when no row was kept.
    /// - Throws: ``/TablePagesDatabase/QueryRefusal`` for a row larger than the limit and none kept;
    ///   PostgreSQL's errors otherwise.
    static func read(_ query: PostgresQuery, limits: QueryLimits, rowLinkBytes: Int, on connection: PostgresConnection, logger: Logger) async throws -> QueryResult {
        let limiter = Mutex(QueryResultLimiter(limits: limits, columns: [], rowLinkBytes: rowLinkBytes))
        // Why the handler stopped the reading: postgres-nio may fail the query with its own
        // "cancelled" instead of the handler's error.
        let stopped = Mutex<QueryRefusal??>(nil)
        do {
            _ = try await connection.query(query, logger: logger) { row in
                do {
                    let more = try limiter.withLock { limiter in
                        if limiter.result.rows.isEmpty { limiter.name(columns: row.map(\.columnName)) }
                        guard try limiter.mayFit(rawBytes: row.reduce(0) { $0 + ($1.bytes?.readableBytes ?? 0) }) else { return false }
                        return try limiter.admit(PostgresQueryValues.values(of: row))
                    }
                    if !more {
                        stopped.withLock { $0 = .some(nil) }
                        throw Stop()
                    }
                } catch let refusal as QueryRefusal {
                    stopped.withLock { $0 = refusal }
                    throw refusal
                }
            }.get()
        } catch let error as PSQLError where error.serverInfo?[.message]?.contains(marker) == true {
            // postgres-nio may drop the rows that came with the error: then no row is kept, and
            // the row refused need not be the first.
            let none = limiter.withLock { $0.result.rows.isEmpty }
            if none {
                throw QueryRefusal(
                    "A row is larger than the size limit (\(QueryLimits.describe(bytes: limits.bytes)), --sql-result-size): PostgreSQL stopped before sending it. Select fewer or shorter columns, e.g. left(x, 1000) or length(x)."
                )
            }
            return limiter.withLock { limiter in
                var result = limiter.result
                result.truncated = true
                return result
            }
        } catch {
            switch stopped.withLock({ $0 }) {
            case .none: throw error
            case .some(.some(let refusal)): throw refusal
            case .some(.none): break
            }
        }
        return limiter.withLock { $0.result }
    }

    /// Thrown from the row handler to stop reading: the limit is reached.
    private struct Stop: Error {}
}
