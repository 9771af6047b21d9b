import Synchronization

/// Counts open connections per client address (per IPv6 /64) for
/// ``ServerConfiguration/perClientConnectionLimit``.
///
/// libmicrohttpd has a per-address limit of its own, but it counts exact addresses and cannot
/// exempt a reverse proxy, whose connections carry every client behind it. A connection is counted
/// when it opens, before a header is read, so it is counted by the socket's peer: trusted proxies
/// are left out (``ServerConfiguration/connectionLimit`` still bounds them), and the clients behind
/// them are bounded by the limits that can see them (streams per client, the sign-in limiter).
final class ConnectionsPerClient: Sendable {
    private let limit: Int
    private let trusted: [AddressRange]
    private let counts = Mutex<[PeerAddress: Int]>([:])

    init(limit: Int, trusted: [AddressRange]) {
        self.limit = limit
        self.trusted = trusted
    }

    /// Counts a new connection from `peer`; returns the key it was counted under (to give back to
    /// ``closed(_:)``), or nil when it is not counted. `admitted` is false when the client already
    /// held ``limit`` connections: the caller then closes the new one.
    func opened(_ peer: PeerAddress?) -> (key: PeerAddress?, admitted: Bool) {
        guard limit > 0, let peer, !ForwardedClient.isTrusted(peer, trusted) else { return (nil, true) }
        let key = peer.clientKey
        let admitted = counts.withLock { counts in
            let open = counts[key] ?? 0
            guard open < limit else { return false }
            counts[key] = open + 1
            return true
        }
        return admitted ? (key, true) : (nil, false)
    }

    /// A connection counted under `key` closed.
    func closed(_ key: PeerAddress) {
        counts.withLock { counts in
            let open = (counts[key] ?? 1) - 1
            counts[key] = open > 0 ? open : nil
        }
    }
}
