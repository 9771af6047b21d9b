import Logging

/// The one line per request the server logs: method, path, status, duration and peer.
struct RequestLog: Sendable {
    let logger: Logger

    func record(method: HTTPMethod, path: String, status: Int, startedAt: ContinuousClock.Instant, request: Request?) {
        // Checked first so that a server run at `warning` pays nothing per request (not even for
        // formatting the peer's address).
        guard logger.logLevel <= .info else { return }
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
