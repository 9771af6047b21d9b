import Foundation
import HTTPTestSupport
import Logging
import PostgresNIO
import Testing
@testable import TableStorePostgres

/// `PostgresConnection.blockingAnswer(within:logger:_:)` on a real server: postgres-nio never
/// answers a statement sent on a closed connection, so these are the cases that would hang a lane.
@Suite("PostgresConnection.blockingAnswer")
struct PostgresBlockingAnswerTests {
    private static let logger = Logger(label: "test")

    @Test(
        "answers; gives up at its bound and closes the connection; sends nothing on a closed one",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/postgresql"), "needs Debian's postgresql (make test-deps)")
    )
    func boundAndClosed() async throws {
        let cluster = try await onThread { try PostgresTestCluster() }
        defer { cluster.stop() }
        let configuration = try PostgresURL(cluster.url).connectionConfiguration(applicationName: "test")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Self.logger)
        let logger = Self.logger

        let answer = try await onThread {
            try connection.blockingAnswer(within: .seconds(10), logger: logger) {
                try await connection.query("SELECT 41 + 1", logger: logger).collect().first?.decode(Int.self)
            }
        }
        #expect(answer == 42)

        let start = ContinuousClock.now
        let slow = await #expect(throws: PostgresUnanswered.self) {
            try await onThread {
                try connection.blockingAnswer(within: .milliseconds(300), logger: logger) {
                    try await connection.query("SELECT pg_sleep(30)", logger: logger).collect().count
                }
            }
        }
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(slow == .timedOut(.milliseconds(300)) || slow == .closedWhileWaiting)
        // Given up, the connection is closed so that no pool lends it again.
        for _ in 0..<100 where !connection.isClosed { try await Task.sleep(for: .milliseconds(20)) }
        #expect(connection.isClosed)

        let closed = await #expect(throws: PostgresUnanswered.self) {
            try await onThread {
                try connection.blockingAnswer(within: .seconds(10), logger: logger) { 0 }
            }
        }
        #expect(closed == .closedBeforeSending)
    }
}
