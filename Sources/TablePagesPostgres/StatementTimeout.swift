/// PostgreSQL's `statement_timeout` for a query time limit: whole milliseconds, at least 1 (0
/// would switch the limit off).
enum StatementTimeout {
    static func milliseconds(_ limit: Duration) -> Int64 {
        let (seconds, attoseconds) = limit.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
