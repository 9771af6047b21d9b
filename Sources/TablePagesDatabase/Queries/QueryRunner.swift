/// Runs a visitor's SQL read-only under ``QueryLimits``: SQLite's (a read-only connection with an
/// authorizer) or PostgreSQL's (a `READ ONLY` transaction that is rolled back), for ``QueryPages``.
public protocol QueryRunner: Sendable {
    /// The limits each query runs under.
    var limits: QueryLimits { get }

    /// Runs `sql`, binding each named parameter to the text `parameters` has for its name, or to
    /// empty text. Blocks its thread: call it where blocking is allowed, never on Swift's
    /// cooperative pool or an event loop.
    /// - Throws: ``QueryRefusal`` for SQL that is refused or fails as SQL (400), errors that
    ///   answer the client (`HTTPErrorConvertible`: the time limit, a busy server), others (500).
    func run(_ sql: String, parameters: [String: String]) throws -> QueryResult

    /// Checks `sql` as ``run(_:parameters:)`` would run it, without reading its rows: that it
    /// only reads, that the database accepts it (its syntax, its tables and columns), with its
    /// named parameters unfilled. How `serve --config` checks the canned queries at startup
    /// (``SiteConfiguration/checkQueries(with:path:)``). Blocks its thread.
    /// - Throws: ``QueryRefusal`` with the database's message when `sql` would not run; the
    ///   errors of ``run(_:parameters:)`` when the database cannot be asked.
    func check(_ sql: String) throws
}
