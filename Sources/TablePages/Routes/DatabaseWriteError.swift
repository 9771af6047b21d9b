/// An error of a database write that an action's delegates let through, and what the client may
/// learn of it: whether another writer held the database (the client is asked to retry: 503 with
/// `Retry-After`), or else what the database refused (500). Other errors an action throws are
/// answered 500 without detail. Either way the message says nothing was changed.
///
/// TablePagesDatabase makes GRDB's `DatabaseError` one.
public protocol DatabaseWriteError: Error {
    /// True when the write failed only because another connection held the database.
    var isBusyWithAnotherWriter: Bool { get }
    /// What the database said, naming no table, column, file, SQL or argument:
    /// `SQLite error 19 (constraint failed)`.
    var summaryForClients: String { get }
}
