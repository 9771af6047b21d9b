import TableStore

/// A write transaction's session that names the write, so that the database can be asked
/// afterwards whether it committed: PostgreSQL's, whose connection may fail after `COMMIT` was
/// sent. ``DatabaseAuditTrail`` records a write's entries under ``writeID`` in the same
/// transaction, so that finding the id proves the commit, and tells the session what it needs to
/// look the id up (``recorded(transactionID:lastEntry:)``).
///
/// ## Implementation requirements
/// ``writeID`` is the same throughout one transaction. A transaction that was never told
/// ``recorded(transactionID:lastEntry:)`` wrote no entry, and cannot be looked up by its id.
public protocol IdentifiedWriteSession: SQLSession {
    /// The id of this transaction's write.
    var writeID: String { get }

    /// Notes that the write's entries were recorded in this transaction, whose id (PostgreSQL's
    /// `txid_current()`) is `transactionID`, the last of them numbered `lastEntry` (the trail's `id`).
    func recorded(transactionID: Int64, lastEntry: Int64)
}
