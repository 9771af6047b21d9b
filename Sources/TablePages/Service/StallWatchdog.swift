import MicroHTTP
import Synchronization

/// Tells `/healthz` whether requests are being handled: it sends a probe to Swift's task pool
/// (where every asynchronous route runs) and to each database lane, and reports as stalled any
/// that left its probe unanswered for longer than the stall timeout.
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

    /// What is stalled, e.g. `["database lane 2 (40 jobs waiting)"]`; empty when all is well.
    func check() -> [String] {
        let now = ContinuousClock.now
        var send: [Int] = []
        let stalled: [Int] = probes.withLock { probes in
            var stalled: [Int] = []
            for index in probes.indices {
                if let sentAt = probes[index].sentAt {
                    if now - sentAt > timeout { stalled.append(index) }
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

    /// `/healthz`: 200 `{"status":"ok"}`, or 503 naming what is stalled.
    func respond(to request: Request) -> Response {
        let stalled = check()
        guard !stalled.isEmpty else { return .json(#"{"status":"ok"}"#) }
        let list = stalled.map { "\"" + JSONString.escape($0) + "\"" }.joined(separator: ",")
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return .json(#"{"status":"stalled","stalled":["# + list + #"],"message":"No progress for more than \#(milliseconds) ms."}"#, status: 503)
    }
}
