import TableStore

/// Where a ``TableWriter`` keeps an ``AuditEntry`` for every row it changes.
///
/// ## Implementation requirements
/// ``record(_:writing:)`` is called inside the write's transaction, before it commits: an error it
/// throws rolls the write back, so no write is left unaudited. `session` is that transaction, for a
/// trail kept in the same database (PostgreSQL); a trail kept elsewhere (SQLite: a file of
/// TablePages' own, never the user's database) ignores it. It blocks its thread.
public protocol AuditTrail: Sendable {
    /// Keeps `entries`, in order.
    func record(_ entries: [AuditEntry], writing session: any SQLSession) throws
}
