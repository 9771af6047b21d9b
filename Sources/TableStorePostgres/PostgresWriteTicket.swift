/// What a write transaction notes about itself so that, if its `COMMIT` goes unanswered, the
/// store can find out whether it committed: its transaction id, and its write id and sequence
/// number in ``PostgresWriteLedger`` (nil when the ledger could not be installed).
struct PostgresWriteTicket: Sendable, Equatable {
    /// The transaction's id (`txid_current()`, with its epoch).
    let transactionID: Int64
    /// The random id the transaction recorded in the ledger.
    let writeID: String?
    /// The write's number in the ledger's sequence, which names its slot.
    let sequence: Int64?
}
