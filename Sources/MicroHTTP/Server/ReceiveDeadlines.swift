import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The absolute deadline for receiving each request's head and body.
///
/// libmicrohttpd's own timeout is idle-based, so a client that trickles a byte now and then holds
/// its connection forever. Every connection gets a ``ConnectionWatch`` when libmicrohttpd opens it;
/// a sweeper calls ``sweep(now:)`` a few times per deadline and shuts down the socket of each
/// connection still receiving a request after the deadline. libmicrohttpd, on its own event thread,
/// then sees the end of the stream and closes the connection as if the client had gone.
///
/// The socket is shut down, never closed, and only under the lock that the close notification also
/// takes: libmicrohttpd reports a close before it closes the descriptor, so a descriptor that
/// libmicrohttpd has closed (and the kernel may have reused) is never touched. Connection state that
/// belongs to libmicrohttpd (timeouts, responses) is changed only on its event threads.
///
/// Between requests on a kept-alive connection the wait is the idle timeout's business; the next
/// request's clock starts at the last sweep that saw no new bytes on the socket (`TCP_INFO`), so it
/// is at most one sweep early. Bytes within ``clockSlack`` of the previous response are not seen as
/// a start until more arrive; where `TCP_INFO` is missing, the wait between requests counts.
final class ReceiveDeadlines: Sendable {
    /// How long a request may take to arrive; zero turns the deadline off.
    let timeout: Duration
    /// How often ``sweep(now:)`` should run: a few times per deadline, so a connection is cut
    /// at most a quarter of the deadline late.
    let sweepInterval: Duration

    /// Data that arrives this soon after a response completed is taken for the tail of the request
    /// just answered, not the start of the next: the kernel's receive clock ticks in jiffies.
    static let clockSlack = Duration.milliseconds(50)

    private struct Registry {
        var watches: [ObjectIdentifier: ConnectionWatch] = [:]
        var previousSweep: ContinuousClock.Instant = .now
    }

    private let registry = Mutex(Registry())

    init(timeout: Duration) {
        self.timeout = timeout
        sweepInterval = min(.seconds(1), max(.milliseconds(50), timeout / 4))
    }

    /// The number of connections being watched.
    var count: Int { registry.withLock { $0.watches.count } }

    /// Starts watching a connection libmicrohttpd just accepted.
    func opened(descriptor: Int32, countedClient: PeerAddress? = nil) -> ConnectionWatch {
        let watch = ConnectionWatch(descriptor: descriptor, openedAt: .now, countedClient: countedClient)
        registry.withLock { $0.watches[ObjectIdentifier(watch)] = watch }
        return watch
    }

    /// Stops watching; libmicrohttpd closes the descriptor after this returns.
    func closed(_ watch: ConnectionWatch) {
        _ = registry.withLock { $0.watches.removeValue(forKey: ObjectIdentifier(watch)) }
    }

    /// Shuts down every connection past its deadline; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        guard timeout > .zero else { return 0 }
        return registry.withLock { registry in
            defer { registry.previousSweep = now }
            var disconnected = 0
            for watch in registry.watches.values where isPastDeadline(watch, now: now, previousSweep: registry.previousSweep) {
                // Non-blocking, and safe from any thread: the event thread's next read of the
                // socket ends the connection.
                _ = shutdown(watch.descriptor, Int32(SHUT_RDWR))
                disconnected += 1
            }
            return disconnected
        }
    }

    /// Decides one connection's fate; call with the registry locked, so the descriptor is still open.
    private func isPastDeadline(_ watch: ConnectionWatch, now: ContinuousClock.Instant, previousSweep: ContinuousClock.Instant) -> Bool {
        watch.state.withLock { state in
            if case .idle(let since) = state.phase {
                let quiet = tp_socket_milliseconds_since_data(watch.descriptor)
                if quiet < 0 {
                    // No way to see the next request begin: the wait between requests counts.
                    state.phase = .receiving(since: since)
                } else if now - .milliseconds(quiet) > since + Self.clockSlack {
                    // The next request began after the previous sweep (or the response, if later).
                    state.phase = .receiving(since: max(since, previousSweep))
                } else {
                    return false
                }
            }
            guard case .receiving(let since) = state.phase, now - since >= timeout else { return false }
            if state.hasHead, !state.isOverdue {
                // Give the access handler one round to answer 408 when the next body bytes arrive.
                state.isOverdue = true
                return false
            }
            // Moved out of .receiving so that later sweeps do not shut it down again.
            state.phase = .answering
            return true
        }
    }
}
