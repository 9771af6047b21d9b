import Synchronization

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

    func finishAll() {
        for stream in snapshot() { stream.finish() }
    }

    private func snapshot() -> [EventStream] {
        entries.withLock { Array($0.streams.values) }
    }
}
