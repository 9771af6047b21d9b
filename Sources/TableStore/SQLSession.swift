/// Parameterised SQL inside one transaction of an ``SQLStore``: the whole surface the example
/// pages need from a database, so that one page's code runs on SQLite and PostgreSQL alike.
///
///     let open = try session.rows("SELECT id FROM todo WHERE isDone = ?", [.bool(false)])
///
/// Placeholders are `?`, numbered left to right (a PostgreSQL session rewrites them to `$1`, `$2`,
/// …). Calls block their thread until the database answers: run them on a thread that may block,
/// such as a database lane, never on Swift's cooperative pool or an event loop.
///
/// ## Implementation requirements
/// Every call of one session runs in the same transaction, and a read-only session's calls see
/// one snapshot of the database. Errors are thrown as the store's own errors.
public protocol SQLSession {
    /// Runs a query and returns every row it produced.
    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow]

    /// Runs a statement whose rows, if any, are not needed.
    func execute(_ sql: String, _ arguments: [SQLValue]) throws
}

extension SQLSession {
    /// The first row of a query, or nil when it produced none.
    public func row(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLRow? {
        try rows(sql, arguments).first
    }

    /// Runs a query with no arguments.
    public func rows(_ sql: String) throws -> [SQLRow] {
        try rows(sql, [])
    }

    /// Runs a statement with no arguments.
    public func execute(_ sql: String) throws {
        try execute(sql, [])
    }
}
