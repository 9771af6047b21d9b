import Foundation
import HTTPTestSupport
import Logging
import PostgresNIO
import Testing
import TableStore
@testable import TableStorePostgres

/// A connection that the server ends while its answer is still arriving: the statement fails as a
/// connection failure, and the process goes on. (postgres-nio 1.33 crashes when this happens to a
/// row stream waiting for its consumer's demand; `allRows` never leaves one waiting.)
@Suite("A connection ended in the middle of an answer")
struct PostgresTerminatedAnswerTests {
    private static let logger = Logger(label: "test")

    @Test(
        "fails the statement as a connection failure, again and again, without a crash",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/postgresql"), "needs Debian's postgresql (make test-deps)")
    )
    func terminatedMidAnswer() async throws {
        let cluster = try await onThread { try PostgresTestCluster() }
        defer { cluster.stop() }
        let configuration = try PostgresURL(cluster.url).connectionConfiguration(applicationName: "test")
        let logger = Self.logger
        let admin = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        for attempt in 1...5 {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: attempt, logger: logger)
            let pid = try await connection.allRows("SELECT pg_backend_pid()", logger: logger).first?.decode(Int32.self)
            let session = PostgresSession(connection: connection, answerWait: .seconds(30), logger: logger)
            // Rows arrive for about 2 s (a millisecond each); the server ends the connection after
            // a varying part of them.
            async let failure: (any Error)? = onThread {
                do {
                    _ = try session.rows("SELECT g, pg_sleep(0.001) FROM generate_series(1, 2000) AS g", [])
                    return nil
                } catch {
                    return error
                }
            }
            try await Task.sleep(for: .milliseconds(100 * attempt))
            _ = try await admin.allRows("SELECT pg_terminate_backend(\(pid ?? 0))", logger: logger)
            let error = try #require(try await failure as? TableStorePostgres.PostgresError)
            #expect(error.isConnectionFailure, "\(error)")
            try? await connection.close()
        }
        try await admin.close()
    }
}
