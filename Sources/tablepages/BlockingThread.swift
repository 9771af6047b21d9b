import Foundation

/// Runs blocking work (opening databases, reading a PostgreSQL catalog) on a thread of its own
/// and awaits it, so that startup never blocks Swift's cooperative pool.
enum BlockingThread {
    /// The value `work` returns, computed on a new thread.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
