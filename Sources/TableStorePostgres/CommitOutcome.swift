/// What the database says of a write transaction whose `COMMIT` went unanswered.
enum CommitOutcome: Equatable, Sendable {
    /// It committed; the reason says how that is known.
    case committed(String)
    /// It did not commit, and never will; the reason says how that is known.
    case notCommitted(String)
    /// It has not ended yet (the server has not noticed the connection's loss): ask again.
    case inProgress
    /// It cannot be known; the reason says why.
    case unknown(String)
}
