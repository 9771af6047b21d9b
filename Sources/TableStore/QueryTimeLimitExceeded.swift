/// A read stopped because it ran longer than its store's ``Store/queryTimeLimit``.
///
/// SQLite was interrupted: nothing was changed, and the same read can succeed with a higher limit
/// or an index that makes it cheaper.
public struct QueryTimeLimitExceeded: Error, Sendable, CustomStringConvertible {
    /// The limit the read ran past.
    public let limit: Duration

    /// Creates the error for a read that ran past `limit`.
    public init(limit: Duration) {
        self.limit = limit
    }

    /// The limit in whole milliseconds, as the `--query-time-limit` option takes it.
    public var milliseconds: Int64 {
        limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000
    }

    /// Says what happened, for logs.
    public var description: String {
        "the query took longer than the time limit of \(milliseconds) ms"
    }
}
