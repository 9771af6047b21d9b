import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The server's open event streams, for heartbeats, for ending them all on shutdown, and for the
/// cap on streams per client address.
final class StreamRegistry: Sendable {
    private struct Entries {
        // Only the stream: an entry is paid for per subscriber (and twice over, as the table keeps
        // room to grow). A stream's client address is kept by the stream itself.
        var streams: [ObjectIdentifier: EventStream] = [:]
        var perClient: [PeerAddress: Int] = [:]
    }

    private let entries = Mutex(Entries())

    var count: Int { entries.withLock { $0.streams.count } }

    /// Registers `stream`, unless `client` already has `limit` streams open (0: no limit); returns
    /// whether it was registered. Checked and counted under one lock, so concurrent requests from
    /// one client cannot pass the cap together. A registered stream removes itself when it ends
    /// (``EventStream/detach()``), without a termination handler of its own.
    func add(_ stream: EventStream, client: PeerAddress? = nil, limit: Int = 0) -> Bool {
        let added = entries.withLock { entries in
            if let client {
                let open = entries.perClient[client] ?? 0
                if limit > 0, open >= limit { return false }
                entries.perClient[client] = open + 1
            }
            entries.streams[ObjectIdentifier(stream)] = stream
            return true
        }
        if added, !stream.register(in: self, client: client) {
            // Ended before it was registered: its detach found no registry, so remove it here.
            remove(stream, client: client)
        }
        return added
    }

    func remove(_ stream: EventStream, client: PeerAddress?) {
        entries.withLock { entries in
            guard entries.streams.removeValue(forKey: ObjectIdentifier(stream)) != nil, let client else { return }
            let open = (entries.perClient[client] ?? 1) - 1
            entries.perClient[client] = open > 0 ? open : nil
        }
    }

    /// Sends a heartbeat comment to every stream; a write to a vanished peer makes libmicrohttpd
    /// close that connection, which ends the stream and tells its owner.
    func sendHeartbeats() {
        for stream in snapshot() { stream.comment("heartbeat") }
    }

    /// Ends the sleeping streams whose clients closed their connections; returns how many.
    ///
    /// A suspended connection is not watched by libmicrohttpd, so a client that leaves while its
    /// stream sleeps would hold its slot (and its per-client count) until the next heartbeat finds
    /// the socket dead. One `poll` over every sleeping stream's socket, without waiting, sees the
    /// peer's FIN (`POLLRDHUP`) or a reset; the server calls this every ``hangupCheckInterval``.
    /// Thousands of streams cost one system call and one lock per stream.
    @discardableResult
    func closeVanished() -> Int {
        var sleeping: [(stream: EventStream, descriptor: Int32)] = []
        for stream in snapshot() {
            if let descriptor = stream.sleepingDescriptor { sleeping.append((stream, descriptor)) }
        }
        guard !sleeping.isEmpty else { return 0 }
        var descriptors = sleeping.map { pollfd(fd: $0.descriptor, events: Int16(TP_POLL_PEER_CLOSED), revents: 0) }
        guard poll(&descriptors, nfds_t(descriptors.count), 0) > 0 else { return 0 }
        var closed = 0
        for (index, entry) in sleeping.enumerated() where descriptors[index].revents & Int16(TP_POLL_PEER_CLOSED | POLLHUP | POLLERR) != 0 {
            entry.stream.peerWentAway()
            closed += 1
        }
        return closed
    }

    /// How often ``closeVanished()`` runs: a stream's slot is free at most this long after its
    /// client left.
    static let hangupCheckInterval = Duration.milliseconds(500)

    func finishAll() {
        for stream in snapshot() { stream.finish() }
    }

    private func snapshot() -> [EventStream] {
        entries.withLock { Array($0.streams.values) }
    }
}
