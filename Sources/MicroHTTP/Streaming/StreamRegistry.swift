import Synchronization

/// The server's open event streams, for heartbeats and for ending them all on shutdown.
final class StreamRegistry: Sendable {
    private let streams = Mutex<[ObjectIdentifier: EventStream]>([:])

    var count: Int { streams.withLock { $0.count } }

    func add(_ stream: EventStream) {
        streams.withLock { $0[ObjectIdentifier(stream)] = stream }
    }

    func remove(_ stream: EventStream) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
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
        streams.withLock { Array($0.values) }
    }
}
