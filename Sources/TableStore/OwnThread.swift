import Foundation

/// Runs blocking work (a database write, opening a database, reading a catalog) on a new thread
/// of its own and awaits it, so that the work never holds a thread of Swift's cooperative pool:
/// that pool has one thread per core, and every task of the process waits while they all block.
///
///     let count = try await OwnThread.run { try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } }
public enum OwnThread {
    /// The value `work` returns (or the error it throws), computed on a new thread. A task that is
    /// cancelled meanwhile still waits for `work`, which runs to its end: a transaction begun
    /// commits or rolls back as a whole.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
