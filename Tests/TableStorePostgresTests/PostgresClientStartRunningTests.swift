import Logging
import PostgresNIO
import HTTPTestSupport
import Testing
@testable import TableStorePostgres

/// `PostgresClient.startRunning()`: a lease made right after it must not find the client not yet
/// running (postgres-nio then logs a warning on every such start, issue 19).
@Suite("PostgresClient.startRunning")
struct PostgresClientStartRunningTests {
    @Test("a lease right after startRunning() finds run() already called")
    func leaseRightAfterStart() async throws {
        let log = LogRecorder()
        let logger = log.logger(from: .trace)
        // Nothing listens on port 1: the lease waits for a connection that never comes, which is
        // enough, since postgres-nio checks whether run() was called as the lease begins.
        let configuration = PostgresClient.Configuration(host: "127.0.0.1", port: 1, username: "nobody", password: nil, database: nil, tls: .disable)
        for _ in 0..<20 {
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            let running = client.startRunning()
            // Immediate, so the lease begins before this line returns: no scheduling luck.
            let lease = Task.immediate { try await client.withConnection { _ in } }
            try await Task.sleep(for: .milliseconds(20))
            lease.cancel()
            running.cancel()
            _ = await lease.result
            await running.value
        }
        let early = log.allMessages.filter { $0.contains("hasn't been called") }
        #expect(early.isEmpty, "\(early)")
    }
}
