import Foundation
import Testing
import TableStore
@testable import TableStorePostgres

/// Runs `body` on a thread of its own: BlockingWait blocks its caller, which must not be one of
/// the cooperative pool's threads (where the tests run).
private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

@Suite("PostgresSession and PostgresChange")
struct PostgresSessionTests {
    @Test("? placeholders become $1, $2, … left to right; quoted question marks stay")
    func placeholders() {
        #expect(SQLDialect.postgresql.numberingPlaceholders("UPDATE t SET a = ? WHERE id = ? AND b = '?' AND \"c?\" = ?")
            == "UPDATE t SET a = $1 WHERE id = $2 AND b = '?' AND \"c?\" = $3")
        #expect(SQLDialect.postgresql.numberingPlaceholders("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', $1")
    }

    @Test("A trigger's payload parses; anything else is no change description")
    func payload() {
        #expect(PostgresChange(payload: #"{"table":"todo","version":42}"#) == PostgresChange(table: "todo", version: 42))
        #expect(PostgresChange(payload: "hello") == nil)
    }

    @Test("BlockingWait returns the task's value and rethrows its error")
    func blockingWait() async throws {
        struct Failure: Error {}
        #expect(try await onThread { try BlockingWait.run { 40 + 2 } } == 42)
        await #expect(throws: Failure.self) { try await onThread { try BlockingWait.run { () async throws -> Int in throw Failure() } } }
    }
}
