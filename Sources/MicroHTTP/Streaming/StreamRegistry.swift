import Synchronization

/// The server's open event streams, for heartbeats, for ending them all on shutdown, and for the
/// cap on streams per client address.
final class StreamRegistry: Sendable {
    private struct Entries {
        var streams: [ObjectIdentifier: (stream: EventStream, client: PeerAddress?)] = [:]
        var perClient: [PeerAddress: Int] = [:]
    }

    private let entries = Mutex(Entries())

    var count: Int { entries.withLock { $0.streams.count } }

    /// Registers `stream`, unless `client` already has `limit` streams open (0: no limit); returns
    /// whether it was registered. Checked and counted under one lock, so concurrent requests from
    /// one client cannot pass the cap together.
    func add(_ stream: EventStream, client: PeerAddress? = nil, limit: Int = 0) -> Bool {
        entries.withLock { entries in
            if let client {
                let open = entries.perClient[client] ?? 0
                if limit > 0, open >= limit { return false }
                entries.perClient[client] = open + 1
            }
            entries.streams[ObjectIdentifier(stream)] = (stream, client)
            return true
        }
    }

    func remove(_ stream: EventStream) {
        entries.withLock { entries in
            guard let removed = entries.streams.removeValue(forKey: ObjectIdentifier(stream)),
                  let client = removed.client else { return }
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
        entries.withLock { $0.streams.values.map(\.stream) }
    }
}
