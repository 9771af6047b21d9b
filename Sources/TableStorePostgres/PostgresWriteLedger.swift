/// The ids of the latest write transactions, in a ring of ``capacity`` rows (`tablepages_writes`)
/// that ``PostgresStore`` installs on its first write: each write records a random id of its own in
/// its transaction, so that when the connection fails after `COMMIT` was sent, finding the id
/// afterwards proves the commit, and missing it — once the transaction is over — proves the
/// opposite.
///
/// A transaction id alone cannot prove it: after a crash, a restarted server may hand out again
/// the id of a transaction whose commit record was never flushed, and a later transaction that
/// commits under it would be taken for the lost one.
///
/// Write *n* (of a sequence) takes slot *n* mod ``capacity``, so the table never holds more than
/// ``capacity`` rows (about 8 MB), and an id is kept until ``capacity`` later writes; a slot taken
/// by a later write before its id was looked up is noticed (its sequence number is higher), and
/// the outcome is then reported unknown rather than guessed.
enum PostgresWriteLedger {
    /// How many writes' ids are kept: far more than can commit in the few seconds a lookup takes.
    static let capacity = 100_000

    /// Serialises instances installing the ledger at the same time (`pg_advisory_xact_lock`'s key).
    static let installLock: Int64 = 0x7461_626c_6577_7269

    /// Creates the sequence and the ring; safe to run again.
    static let installStatements = [
        "CREATE SEQUENCE IF NOT EXISTS tablepages_write_sequence",
        """
        CREATE TABLE IF NOT EXISTS tablepages_writes (
            slot integer PRIMARY KEY,
            sequence bigint NOT NULL,
            id uuid NOT NULL
        )
        """,
    ]

    /// Whether the ledger is installed.
    static let existsQuery = "SELECT to_regclass('tablepages_writes') IS NOT NULL AND to_regclass('tablepages_write_sequence') IS NOT NULL"

    /// Records the write id (the one argument) in the caller's transaction, in one round trip, and
    /// answers the transaction's id and the write's sequence number: a write's ticket.
    static let recordQuery = """
        WITH next AS (SELECT nextval('tablepages_write_sequence') AS sequence),
        recorded AS (
            INSERT INTO tablepages_writes (slot, sequence, id)
                SELECT sequence % \(capacity), sequence, ?::uuid FROM next
                ON CONFLICT (slot) DO UPDATE SET sequence = excluded.sequence, id = excluded.id
                RETURNING sequence
        )
        SELECT txid_current(), sequence FROM recorded
        """

    /// Reads, in one snapshot, the slot of a ticket (arguments: its transaction id twice, then its
    /// slot): the slot's sequence number and id (null when the slot was never taken), whether the
    /// transaction is over as of the snapshot, and whether its id is not below the one the server
    /// hands out next (the server restarted without it). The snapshot's own bound cannot tell the
    /// latter: it lies past the last transaction *ended*, not the last begun. `txid_current()`
    /// gives the lookup an id of its own, a cost paid only after a lost connection.
    static let lookupQuery = """
        SELECT w.sequence, w.id::text,
            txid_visible_in_snapshot(?, txid_current_snapshot()),
            ? >= txid_current()
        FROM (VALUES (1)) AS one LEFT JOIN tablepages_writes AS w ON w.slot = ?
        """

    /// The slot of write `sequence`.
    static func slot(of sequence: Int64) -> Int64 {
        sequence % Int64(capacity)
    }

    /// What a lookup says of `ticket`: the id its slot holds (and that id's sequence number),
    /// whether its transaction is over, and whether the server restarted without it.
    static func outcome(of ticket: PostgresWriteTicket, slotSequence: Int64?, slotID: String?, isOver: Bool, isPastServer: Bool) -> CommitOutcome {
        if let slotID, slotID.lowercased() == ticket.writeID?.lowercased() {
            return .committed("its write id is recorded")
        }
        if isPastServer {
            return .notCommitted("the server restarted without it")
        }
        guard isOver else {
            return .inProgress
        }
        if let slotSequence, let sequence = ticket.sequence, slotSequence > sequence {
            return .unknown("its slot in tablepages_writes was taken by a later write (\(slotSequence)) before it could be looked up")
        }
        return .notCommitted("it is over and its write id is not recorded")
    }
}
