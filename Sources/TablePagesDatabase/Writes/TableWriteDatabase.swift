import TableStore

/// A database a ``TableWriter`` writes through: it reads as the pages do, writes in transactions,
/// and tells the client's mistakes (a value a constraint or a column's type refused) from its own
/// failures. SQLite's ``/TableStore/Store`` is one; so is TablePagesPostgres' pool.
///
/// ## Implementation requirements
/// ``transaction(_:)`` runs `body` in one transaction that commits when it returns and rolls back
/// as a whole when it throws, and blocks its thread (call it from a thread of its own).
public protocol TableWriteDatabase: SQLReader {
    /// Writes in one transaction, durable once it returns.
    func transaction<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T

    /// `error`, thrown by a statement writing `table`, as the refusal the client is told: a
    /// ``TableWriteError/constraint(column:rule:message:)`` naming the column where the database
    /// names it, or ``TableWriteError/failed(message:retryable:)`` for a busy or unreachable
    /// database; nil for any other error (the writer logs it and answers 500).
    func refusal(of error: any Error, table: String) -> TableWriteError?
}
