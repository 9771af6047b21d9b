import Escaping
import MicroHTTP
import Synchronization

/// Tells whether requests are being handled: it sends a probe to Swift's task pool (where every
/// asynchronous route runs) and to each database lane, and reports as stalled any that left its
/// probe unanswered for longer than the stall timeout.
///
/// `/healthz` (liveness) reports a stalled task pool: nothing in this process may block it, so
/// a stall there is a deadlock no wait will cure, and restarting is the remedy. A lane stalled
/// for a while is slow queries or a locked database, which pass: `/readyz` (readiness) reports it,
/// so a load balancer sends requests elsewhere meanwhile, where a restart would only drop every
/// live subscriber and leave the database as slow. But every wait of a database job is bounded
/// (a statement, a connection, a lock), so a lane that makes no progress for
/// ``livenessFactor`` times the stall timeout is wedged: `/healthz` reports it too, so that an
/// orchestrator restarts the process.
///
/// Probes are sent by ``check()`` itself, when the previous one was answered, so an idle server
/// does no work for its health checks; `check()` never blocks (a lock held for a few assignments,
/// and queueing a probe), so it may run on an event thread.
final class StallWatchdog: Sendable {
    private struct Probe {
        /// When the unanswered probe was sent; nil when none is outstanding.
        var sentAt: ContinuousClock.Instant?
    }

    private let lanes: [DatabaseLane]
    private let timeout: Duration
    // Index 0 is the task pool, 1… the lanes in order.
    private let probes: Mutex<[Probe]>

    init(lanes: [DatabaseLane], timeout: Duration) {
        self.lanes = lanes
        self.timeout = timeout
        probes = Mutex(Array(repeating: Probe(), count: lanes.count + 1))
    }

    /// How many stall timeouts a lane may go without progress before `/healthz` reports it.
    static let livenessFactor = 6

    /// What is stalled, e.g. `["database lane 2 (40 jobs waiting)"]`; empty when all is well.
    /// `lanesTimeout` is how long a lane may leave its probe unanswered (the stall timeout, as
    /// the task pool, by default).
    func check(lanesTimeout: Duration? = nil) -> [String] {
        let now = ContinuousClock.now
        let lanesTimeout = lanesTimeout ?? timeout
        var send: [Int] = []
        let stalled: [Int] = probes.withLock { probes in
            var stalled: [Int] = []
            for index in probes.indices {
                if let sentAt = probes[index].sentAt {
                    if now - sentAt > (index == 0 ? timeout : lanesTimeout) { stalled.append(index) }
                } else {
                    probes[index].sentAt = now
                    send.append(index)
                }
            }
            return stalled
        }
        for index in send { sendProbe(index) }
        return stalled.map { index in
            index == 0 ? "request handling (Swift tasks)" : "database lane \(index) (\(lanes[index - 1].pending) jobs waiting)"
        }
    }

    private func sendProbe(_ index: Int) {
        let answer: @Sendable () -> Void = { [self] in probes.withLock { $0[index].sentAt = nil } }
        if index == 0 {
            Task.detached(operation: answer)
        } else {
            lanes[index - 1].submit(answer)
        }
    }

    /// `/healthz`: 200 `{"status":"ok"}`, or 503 when request handling is stalled, or a database
    /// lane for ``livenessFactor`` stall timeouts.
    func respond(to request: Request) -> Response {
        report(check(lanesTimeout: timeout * Self.livenessFactor)) ?? .json(#"{"status":"ok"}"#)
    }

    /// The 503 naming what is stalled; nil when nothing is.
    func report(_ stalled: [String]) -> Response? {
        guard !stalled.isEmpty else { return nil }
        let list = stalled.map { "\"" + JSONEscaping.escape($0) + "\"" }.joined(separator: ",")
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return .json(#"{"status":"stalled","stalled":["# + list + #"],"message":"No progress for more than \#(milliseconds) ms."}"#, status: 503)
    }
}
