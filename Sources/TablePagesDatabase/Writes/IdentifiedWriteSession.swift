import TableStore

/// A write transaction's session that names the write, so that the database can be asked
/// afterwards whether it committed: PostgreSQL's, whose connection may fail after `COMMIT` was
/// sent. ``DatabaseAuditTrail`` records a write's entries under this id, in the same transaction,
/// so that finding the id proves the commit.
///
/// ## Implementation requirements
/// ``recordingWriteID()`` answers the same id every time in one transaction, and notes that the
/// id is being written in it (a transaction that wrote no entry cannot be looked up by it).
public protocol IdentifiedWriteSession: SQLSession {
    /// The id of this transaction's write, noting that it is recorded in the transaction.
    func recordingWriteID() -> String
}
