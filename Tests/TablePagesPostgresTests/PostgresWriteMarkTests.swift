import Testing
@testable import TablePagesPostgres

/// How a write whose `COMMIT` went unanswered is settled from one lookup: every combination of
/// what the database can say, and the ticket the audit trail hands the session.
@Suite struct PostgresWriteMarkTests {
    @Test(arguments: [false, true], [false, true])
    func aFoundWriteIDIsACommitWhateverElseIsSaid(isOver: Bool, droppedPast: Bool) {
        #expect(PostgresWriteMark.outcome(found: true, isOver: isOver, isPastServer: false, droppedPast: droppedPast) == .committed)
    }

    @Test func aMissingWriteIDIsNoCommitOnlyOnceTheTransactionIsOverAndNothingPastItWasDropped() {
        #expect(PostgresWriteMark.outcome(found: false, isOver: false, isPastServer: false, droppedPast: false) == .inProgress)
        #expect(PostgresWriteMark.outcome(found: false, isOver: true, isPastServer: false, droppedPast: false)
            == .notCommitted("it is over and its write id is not in the audit trail"))
        // The bound may have dropped it after it committed: it cannot be told.
        #expect(PostgresWriteMark.outcome(found: false, isOver: true, isPastServer: false, droppedPast: true) == .unknown)
        // A restarted server that never recorded the transaction.
        #expect(PostgresWriteMark.outcome(found: false, isOver: false, isPastServer: true, droppedPast: true)
            == .notCommitted("the server restarted without it"))
    }

    @Test func aMarkHasATicketOnlyOnceTheTrailRecordedIt() {
        let mark = PostgresWriteMark()
        #expect(mark.ticket == nil)
        mark.record(transactionID: 42, lastEntry: 7)
        #expect(mark.ticket == PostgresWriteMark.Ticket(writeID: mark.writeID, transactionID: 42, entryID: 7))
        #expect(PostgresWriteMark.lookupArguments(mark.ticket!) == [.text(mark.writeID), .integer(42), .integer(42), .integer(7)])
    }
}
