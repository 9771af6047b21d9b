import TableStore

/// Where a database page's queries run: a SQLite ``/TableStore/Store`` or a PostgreSQL
/// connection pool. The page's SQL is built once, for the executor's ``dialect``
/// (`DatabaseTableReader`); the executor only runs it.
public protocol DatabaseTableExecutor: Sendable {
    /// The SQL the executor's database speaks.
    var dialect: SQLDialect { get }

    /// Runs `body` in one read-only snapshot of the database, bounded by the server's query time
    /// limit. It blocks its thread: call it from a database lane, never from Swift's cooperative
    /// pool or an event loop.
    /// - Throws: ``/TableStore/QueryTimeLimitExceeded`` when the read ran past the limit, errors
    ///   that answer the client (``/TablePages/HTTPErrorConvertible``), or the database's own.
    func read<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T
}
