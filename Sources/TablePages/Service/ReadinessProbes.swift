import Synchronization

/// Asks the ``ReadinessProbe``s whether they answer, all in one job on a database lane, for
/// `/readyz`.
///
/// At most one probe is outstanding: callers that arrive while it runs wait for the same answer,
/// each for at most its own timeout. A lane held by a slow page therefore gets one probe queued
/// behind it, however often a load balancer asks.
final class ReadinessProbes: Sendable {
    private struct Outstanding {
        var sentAt: ContinuousClock.Instant?
        var waiters: [Int: CheckedContinuation<String?, Never>] = [:]
        var nextWaiter = 0
    }

    private let probes: [any ReadinessProbe]
    private let lanes: DatabaseLanes
    private let state = Mutex(Outstanding())

    init(_ probes: [any ReadinessProbe], lanes: DatabaseLanes) {
        self.probes = probes
        self.lanes = lanes
    }

    /// nil when every probe answered within `timeout`; otherwise what went wrong.
    func check(timeout: Duration) async -> String? {
        guard !probes.isEmpty else { return nil }
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        let late = "The database did not answer within \(milliseconds) ms."
        return await withCheckedContinuation { continuation in
            let now = ContinuousClock.now
            let (waiter, send, waitFor) = state.withLock { state -> (Int, Bool, Duration) in
                let waiter = state.nextWaiter
                state.nextWaiter += 1
                state.waiters[waiter] = continuation
                if let sentAt = state.sentAt { return (waiter, false, timeout - (now - sentAt)) }
                state.sentAt = now
                return (waiter, true, timeout)
            }
            if send {
                lanes.leastBusy().submit { [self] in answer(probeAll()) }
            }
            // The timer answers this caller alone; the probe stays queued and answers later callers.
            Task { [self] in
                if waitFor > .zero { try? await Task.sleep(for: waitFor) }
                state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(returning: late)
            }
        }
    }

    /// Runs on a lane: asks every probe, and says what failed.
    private func probeAll() -> String? {
        for probe in probes {
            do {
                try probe.probe()
            } catch {
                return String(describing: error)
            }
        }
        return nil
    }

    private func answer(_ failure: String?) {
        let waiters = state.withLock { state in
            defer {
                state.waiters.removeAll()
                state.sentAt = nil
            }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: failure) }
    }
}
