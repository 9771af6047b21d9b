/// A database that reads in snapshots, within its query time limit: all that a database's
/// tables as pages need (TablePagesDatabase). Every ``SQLStore`` is one — a SQLite ``Store``, a
/// `PostgresStore` — and so is a reader that only reads, such as TablePagesPostgres' pool.
///
///     let count = try reader.snapshot { db in try db.row("SELECT count(*) FROM todo")?.int(0) }
///
/// ## Implementation requirements
/// ``snapshot(_:)`` runs `body` in one read-only snapshot, bounded by the reader's query time
/// limit (``QueryTimeLimitExceeded`` past it), and blocks its thread: call it from a database
/// lane, never from Swift's cooperative pool or an event loop. Errors that answer a client are
/// thrown as TablePages' `HTTPErrorConvertible`s, others as the database's own.
public protocol SQLReader: Sendable {
    /// The SQL the database speaks.
    var dialect: SQLDialect { get }

    /// Reads in one snapshot.
    func snapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T

    /// Reads with each statement of `body` in a snapshot of its own, within the same time limit,
    /// for reads whose statements need not agree: a page of rows after a key and the estimate of
    /// the rows that follow it. A SQLite ``Store`` then runs no transaction around them: its
    /// `BEGIN` and `COMMIT` were about 5 % of a keyset page's CPU time.
    func readWithoutSnapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T
}

extension SQLReader {
    /// Default: ``snapshot(_:)``.
    public func readWithoutSnapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        try snapshot(body)
    }
}
