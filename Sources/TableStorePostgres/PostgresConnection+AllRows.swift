import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `query` and collects every row it answers with.
    ///
    /// Through postgres-nio's future-based `query(_:logger:)`, not its row sequence: the future
    /// attaches its collector on the event loop the moment the row stream exists, so the stream
    /// never waits for a consumer's demand. A stream left waiting for demand crashes postgres-nio
    /// (1.33, `RowStreamStateMachine.channelReadComplete`: "How can we receive a body part, after a
    /// channelReadComplete…") when the server closes the connection at that moment, e.g. an
    /// administrator's `pg_terminate_backend` — seen in this project's fault tests.
    ///
    ///     let rows = try await connection.allRows("SELECT 1", logger: logger)
    public func allRows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        let answer: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger)
        return try await answer.get().rows
    }
}
