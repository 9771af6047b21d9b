import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs one statement's async work from a thread that may block (a database lane), waiting at
    /// most `limit` for its answer.
    ///
    /// postgres-nio (1.33) never answers a statement sent on a closed connection: the failure of its
    /// write reaches no one. So nothing is sent on a closed connection, a wait gives up as soon as
    /// the connection closes, and a connection that left a statement unanswered is closed without
    /// waiting, so that the pool does not lend it again.
    ///
    ///     let count = try connection.blockingAnswer(within: .seconds(10), logger: logger) {
    ///         try await connection.allRows("SELECT 1", logger: logger).count
    ///     }
    ///
    /// - Throws: ``PostgresUnanswered`` when the connection was closed or the limit passed; what
    ///   `operation` throws otherwise.
    public func blockingAnswer<Value: Sendable>(
        within limit: Duration, logger: Logger, _ operation: @escaping @Sendable () async throws -> Value
    ) throws -> Value {
        guard !isClosed else { throw PostgresUnanswered.closedBeforeSending }
        do {
            return try BlockingWait.run(within: limit, unless: { [self] in isClosed }, operation)
        } catch let error as WaitTimedOut {
            closeInBackground(logger: logger)
            throw isClosed ? PostgresUnanswered.closedWhileWaiting : PostgresUnanswered.timedOut(error.limit)
        }
    }
}
