import Logging
import PostgresNIO
import TablePagesDatabase

/// A visitor's query's plan, as `EXPLAIN (VERBOSE, FORMAT JSON)` prints it: what
/// ``PostgresFunctionRule`` judges and ``PostgresQueryRunner/tables(read:plan:sql:namespace:on:logger:)``
/// reads. Planning folds calls of immutable functions whose arguments are constants, so the plan
/// of `select repeat('x', 100000000)` holds that 100 MB text: a plan past the answer's byte limit
/// is refused before it is parsed, as an answer that large would be. (postgres-nio still holds the
/// plan's one row while it arrives; the query time limit bounds how large PostgreSQL makes it.)
///
///     let json = try await PostgresPlanText.explain(sql, binds: binds, byteLimit: limits.bytes, on: connection, logger: logger)
enum PostgresPlanText {
    /// The refusal of a query whose plan is not one: its calls cannot be judged.
    static let unreadable = QueryRefusal("This query's plan could not be read, so the functions it calls could not be checked.")

    /// The plan of `sql` (its `:name`s numbered and bound to `binds`).
    /// - Throws: ``/TablePagesDatabase/QueryRefusal`` when the plan is larger than `byteLimit` or
    ///   cannot be read; PostgreSQL's errors.
    static func explain(_ sql: String, binds: PostgresBindings, byteLimit: Int, on connection: PostgresConnection, logger: Logger) async throws -> String {
        let rows = try await connection.allRows(PostgresQuery(unsafeSQL: "EXPLAIN (VERBOSE, FORMAT JSON) " + sql, binds: binds), logger: logger)
        guard let row = rows.first, let cell = row.first else {
            throw unreadable
        }
        let size = cell.bytes?.readableBytes ?? 0
        guard size <= byteLimit else {
            throw QueryRefusal(
                "This query's plan is \(size) bytes, more than the size limit of \(byteLimit) bytes: PostgreSQL computes "
                    + "calls whose arguments are constants while it plans (repeat('x', 100000000) is 100 MB of text then). "
                    + "Ask for less."
            )
        }
        guard case .text(let json)? = try PostgresQueryValues.values(of: row).first else {
            throw unreadable
        }
        return json
    }
}
