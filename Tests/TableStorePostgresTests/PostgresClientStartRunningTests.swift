import Logging
import PostgresNIO
import Synchronization
import Testing
@testable import TableStorePostgres

/// `PostgresClient.startRunning()`: a lease made right after it must not find the client not yet
/// running (postgres-nio then logs a warning on every such start, issue 19).
@Suite("PostgresClient.startRunning")
struct PostgresClientStartRunningTests {
    @Test("a lease right after startRunning() finds run() already called")
    func leaseRightAfterStart() async throws {
        let messages = Messages()
        let logger = Logger(label: "test") { _ in Recorder(messages: messages) }
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
        let early = messages.all.filter { $0.contains("hasn't been called") }
        #expect(early.isEmpty, "\(early)")
    }

    private final class Messages: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private struct Recorder: LogHandler {
        let messages: Messages
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            messages.append(event.message.description)
        }
    }
}
