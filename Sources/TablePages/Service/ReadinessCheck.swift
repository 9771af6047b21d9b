import Escaping
import MicroHTTP
import Synchronization

/// `/readyz`: whether this process can serve pages now. 200 `{"status":"ready"}` when it is not
/// shutting down, nothing is stalled (Swift's task pool and every database lane answer the
/// ``StallWatchdog``), and every ``ReadinessProbe`` answers within ``LiveSettings/readinessTimeout``;
/// otherwise 503 saying which.
///
/// A load balancer should route by it; a container's liveness check uses `/healthz`, which
/// stays 200 through all of these (restarting would not help any of them).
final class ReadinessCheck: Sendable {
    private let watchdog: StallWatchdog
    private let probes: ReadinessProbes
    private let timeout: Duration
    private let shuttingDown = Atomic<Bool>(false)

    init(watchdog: StallWatchdog, probes: ReadinessProbes, timeout: Duration) {
        self.watchdog = watchdog
        self.probes = probes
        self.timeout = timeout
    }

    /// From now on `/readyz` answers 503.
    func beginShutdown() {
        shuttingDown.store(true, ordering: .releasing)
    }

    /// The answer; waits at most the readiness timeout, never on an event thread (an async route).
    func respond(to request: Request) async -> Response {
        if shuttingDown.load(ordering: .acquiring) {
            return .json(#"{"status":"shutting down","message":"The server is shutting down."}"#, status: 503)
        }
        if let stalled = watchdog.report(watchdog.check()) { return stalled }
        if let failure = await probes.check(timeout: timeout) {
            return .json(#"{"status":"unavailable","message":""# + JSONEscaping.escape(failure) + #""}"#, status: 503)
        }
        return .json(#"{"status":"ready"}"#)
    }
}
