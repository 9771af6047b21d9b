import TablePagesDatabase

/// A ``/TablePagesDatabase/QueryRunner`` that runs nothing: every query is answered with why
/// (``PostgresReaderRole``, a 403), so that the SQL page and its live pages say what to fix
/// while the table pages go on.
struct RefusedQueryRunner: QueryRunner {
    let limits: QueryLimits
    /// Why visitors' SQL is not run.
    let refusal: PostgresReaderRole

    func run(_ sql: String, parameters: [String: String]) throws -> QueryResult { throw refusal }

    func check(_ sql: String) throws { throw refusal }
}
