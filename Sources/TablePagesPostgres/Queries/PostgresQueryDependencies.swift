import Logging
import PostgresNIO
import TablePagesDatabase
import TableStorePostgres

/// The calls of a visitor's query wherever they stand, as PostgreSQL's parser resolved them:
/// `EXPLAIN` prints neither a `VALUES` list nor a `LIMIT`/`OFFSET` expression nor a window
/// frame's offset (`values (pg_terminate_backend(pid))` ran past a check of the plan alone), but
/// PostgreSQL's own text of the query as a view (`pg_get_viewdef`) holds all of it, each function
/// by the name it resolved to (`U&"pg\005fread\005ffile"` is `pg_read_file`). The query is made
/// a temporary view in a transaction of its own that is rolled back, before the query's read-only
/// one: making a view parses the query and runs none of it. Its parameters (`$1`…) stand as NULLs,
/// which a view needs and which resolve as the untyped text bound when the query runs does. What
/// ``PostgresFunctionRule`` judges, with the plan's calls. (PostgreSQL records no dependency on
/// its own functions in `pg_depend`, so the view's text is read, as a plan's is.)
///
/// The role needs `TEMPORARY` on the database (every role has it unless it was revoked).
///
///     let calls = try await PostgresQueryDependencies.calls(of: numbered, timeLimit: limits.time, on: connection, logger: logger)
enum PostgresQueryDependencies {
    /// The temporary view's name, in the session's own schema (`DISCARD ALL` drops it too).
    static let viewName = "tablepages_checked_query"

    /// `numbered` (a query whose parameters are `$1`…) with each parameter a NULL.
    static func withoutParameters(_ numbered: String) -> String {
        // By bytes, as PostgreSQL's lexer reads `$` and ASCII digits: a digit that a combining
        // mark follows is still a digit to it.
        let bytes = Array(numbered.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            var end = index + 1
            if bytes[index] == UInt8(ascii: "$") {
                while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            }
            if end > index + 1 { out += Array("NULL".utf8) } else { out.append(bytes[index]) }
            index = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The calls of `numbered`, read from its text as a view, in a transaction of its own (under
    /// `timeLimit`) that is rolled back.
    /// - Throws: PostgreSQL's error when the query does not parse, names what does not exist, or
    ///   the role may not make a temporary view.
    static func calls(of numbered: String, timeLimit: Duration?, on connection: PostgresConnection, logger: Logger) async throws -> PostgresPlanCalls {
        func run(_ sql: String) async throws -> [PostgresRow] {
            try await connection.allRows(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
        // READ WRITE: the reader's sessions begin read-only by default, and a view is made only
        // in a transaction that may write (it is rolled back; the query in it is parsed, not run).
        _ = try await run("BEGIN TRANSACTION READ WRITE")
        do {
            if let timeLimit { _ = try await run("SET LOCAL statement_timeout = \(StatementTimeout.milliseconds(timeLimit))") }
            // One column, so that a query whose columns share a name still makes a view.
            _ = try await run("CREATE TEMPORARY VIEW \(viewName) AS SELECT 1 FROM (\n" + withoutParameters(numbered) + "\n) AS tablepages_checked")
            let text = try await run("SELECT pg_catalog.pg_get_viewdef('pg_temp.\(viewName)'::pg_catalog.regclass)").first?.decode(String.self) ?? ""
            _ = try await run("ROLLBACK")
            var calls = PostgresPlanCalls()
            calls.add(expression: text)
            return calls
        } catch {
            _ = try? await run("ROLLBACK")
            throw error
        }
    }
}
