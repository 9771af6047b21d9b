import Foundation

/// Runs `body` on a thread of its own and waits for it: the stores and `BlockingWait` block their
/// caller, which must not be one of the cooperative pool's threads (where the tests run).
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
