import Foundation
import Synchronization
import TableStore

/// What one write transaction of a ``PostgresTableExecutor`` knows about itself, to learn whether
/// it committed if its `COMMIT` goes unanswered: a random write id, which the audit trail records
/// in the transaction (``/TablePagesDatabase/IdentifiedWriteSession``), and, told by the trail in
/// the same statement, the transaction's id, which tells when the transaction is over, and the
/// number of its last entry, which tells whether the trail's bound could have dropped it since.
final class PostgresWriteMark: Sendable {
    /// The write's id, as the audit trail's `write_id` keeps it.
    let writeID = UUID().uuidString.lowercased()
    private let recorded = Mutex<Ticket?>(nil)

    /// A write looked up after its `COMMIT` went unanswered.
    struct Ticket: Sendable, Equatable {
        /// The id the audit trail recorded.
        let writeID: String
        /// The transaction's id (`txid_current()`, with its epoch).
        let transactionID: Int64
        /// The number (`id`) of the last entry it recorded.
        let entryID: Int64
    }

    /// Notes what the trail told when it recorded the write.
    func record(transactionID: Int64, lastEntry: Int64) {
        recorded.withLock { $0 = Ticket(writeID: writeID, transactionID: transactionID, entryID: lastEntry) }
    }

    /// The ticket of a transaction whose entries recorded the id; nil when nothing recorded it
    /// (then only the connection's failure can be told).
    var ticket: Ticket? {
        recorded.withLock { $0 }
    }

    /// What the database says of a ticket's transaction.
    enum Outcome: Equatable {
        /// The audit trail has its id.
        case committed
        /// It is over without its id, or the server restarted without it; the reason says which.
        case notCommitted(String)
        /// It has not ended yet (the server has not noticed the connection's loss): ask again.
        case inProgress
        /// It is over without its id, but the trail's bound has dropped entries past its own since.
        case unknown
    }

    /// Given a ticket's write id, its transaction id twice, then its entry's number: whether the
    /// audit trail `table` has the write id, whether the transaction is over as of this snapshot,
    /// whether its id is not below the one the server hands out next (it restarted without it; the
    /// snapshot's bound cannot tell: it lies past the last transaction ended, not the last begun),
    /// and whether every entry up to the ticket's was dropped (by the bound, oldest first).
    static func lookup(in table: String) -> String {
        """
        SELECT EXISTS (SELECT 1 FROM \(table) WHERE write_id = ?::text),
            txid_visible_in_snapshot(?::bigint, txid_current_snapshot()),
            ?::bigint >= txid_current(),
            coalesce((SELECT min(id) FROM \(table)) > ?::bigint, false)
        """
    }

    /// The arguments of ``lookup(in:)`` for `ticket`.
    static func lookupArguments(_ ticket: Ticket) -> [SQLValue] {
        [.text(ticket.writeID), .integer(ticket.transactionID), .integer(ticket.transactionID), .integer(ticket.entryID)]
    }

    /// What a lookup's answer says.
    static func outcome(found: Bool, isOver: Bool, isPastServer: Bool, droppedPast: Bool) -> Outcome {
        if found { return .committed }
        if isPastServer { return .notCommitted("the server restarted without it") }
        guard isOver else { return .inProgress }
        return droppedPast ? .unknown : .notCommitted("it is over and its write id is not in the audit trail")
    }
}
