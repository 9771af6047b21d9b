import Logging

/// The one line per request the server logs: method, path, status, duration and peer.
struct RequestLog: Sendable {
    let logger: Logger

    /// Whether request lines are logged at all (the logger's level is `info` or lower).
    var isEnabled: Bool { logger.logLevel <= .info }

    func record(method: HTTPMethod, path: String, status: Int, startedAt: ContinuousClock.Instant?, request: Request?) {
        // Checked first so that a server run at `warning` pays nothing per request (not even for
        // formatting the peer's address).
        guard isEnabled, let startedAt else { return }
        let peer = request?.remoteAddress
        let elapsed = ContinuousClock.now - startedAt
        let microseconds = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        let milliseconds = String(microseconds / 1000) + "." + String(microseconds % 1000 / 100) + String(microseconds % 100 / 10)
        logger.info(
            "\(method) \(path) \(status) \(milliseconds)ms",
            metadata: peer.map { ["peer": .string($0)] }
        )
    }
}
