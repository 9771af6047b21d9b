import TableStore

/// Where a ``TableWriter`` keeps an ``AuditEntry`` for every row it changes, and where the audit
/// page and an undo read them back (``DatabaseAuditTrail``).
///
/// ## Implementation requirements
/// ``record(_:writing:)`` is called inside the write's transaction, before it commits: an error it
/// throws rolls the write back, so no write is left unaudited. `session` is that transaction, for a
/// trail kept in the same database (PostgreSQL); a trail kept elsewhere (SQLite: a file of
/// TablePages' own, never the user's database) ignores it. The entries of one call are one write
/// (one ``AuditRecord/writeID``). Every method blocks its thread.
public protocol AuditTrail: Sendable {
    /// Keeps `entries`, in order, as one write.
    func record(_ entries: [AuditEntry], writing session: any SQLSession) throws

    /// The kept records, newest first: at most `limit` of those numbered below `before` (nil:
    /// from the newest), of the tables in `tables` (nil: of every table).
    func records(before: Int64?, limit: Int, tables: Set<String>?) throws -> [AuditRecord]

    /// The records of the latest write by the actor `actorID` that undid nothing and was not
    /// undone since, in the order written; empty when there is none.
    func lastUndoableWrite(by actorID: String) throws -> [AuditRecord]
}
