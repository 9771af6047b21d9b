import GRDB
import GRDBSQLite

/// Stops SQLite work on one connection once a deadline passes (``Store/read(_:)`` reads under it;
/// so does a connection of another module that needs its own, e.g. the SQL page's). SQLite has no statement timeout;
/// its progress handler is called every `checkInterval` virtual-machine steps, and a non-zero
/// answer interrupts the running statement with `SQLITE_INTERRUPT`.
public enum QueryDeadline {
    /// Virtual-machine steps between clock reads: a few microseconds of work, so a query stops
    /// soon after its deadline while the clock costs next to nothing.
    static let checkInterval: Int32 = 1000

    /// Runs `body` on `db` with SQLite interrupted once `limit` has passed since the call;
    /// an interruption is thrown as ``QueryTimeLimitExceeded``.
    public static func run<T>(_ db: Database, limit: Duration, _ body: (Database) throws -> T) throws -> T {
        var deadline = ContinuousClock.now + limit
        return try withUnsafeMutablePointer(to: &deadline) { deadline in
            guard let connection = db.sqliteConnection else { return try body(db) }
            sqlite3_progress_handler(connection, checkInterval, { context in
                // The pointer is to the deadline on the stack of `run`, which removes the handler
                // before it returns.
                guard let deadline = context?.assumingMemoryBound(to: ContinuousClock.Instant.self) else { return 0 }
                return ContinuousClock.now >= deadline.pointee ? 1 : 0
            }, UnsafeMutableRawPointer(deadline))
            defer { sqlite3_progress_handler(connection, 0, nil, nil) }
            do {
                return try body(db)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && ContinuousClock.now >= deadline.pointee {
                throw QueryTimeLimitExceeded(limit: limit)
            }
        }
    }
}
