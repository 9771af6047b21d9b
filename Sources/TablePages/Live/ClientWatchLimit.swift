#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MicroHTTP
import Synchronization

/// Bounds the variants of costly pages (``PageDefinition/runsOnQueryLane``: each a query re-run
/// after every change while watched) that one client watches at once, so that one client cannot
/// hold every variant a page may keep (``PageDefinition/maxVariants``) and leave every other
/// visitor's "Watch live" refused.
///
/// A client is its address, and for IPv6 its address's /64 (``clientKey(ofAddress:)``): one
/// host is given a whole /64, so counting its addresses apart would bound nothing. Streams of one
/// client on one variant count once: they cost one re-run.
///
///     try limit.admit(host.variant, client: request.remoteAddress, until: stream)
final class ClientWatchLimit: Sendable {
    /// Variants one client may watch at once.
    let perClient: Int
    // By client key: each variant watched, with the number of streams watching it.
    private let watched = Mutex<[String: [PageVariant: Int]]>([:])

    /// A limit of `perClient` variants per client (at least 1).
    init(perClient: Int) {
        self.perClient = max(1, perClient)
    }

    /// Counts `client` as watching `variant` until `stream` ends.
    /// - Throws: 429 with `Retry-After` when the client already watches ``perClient`` other variants.
    func admit(_ variant: PageVariant, client address: String?, until stream: EventStream) throws(HTTPError) {
        let client = Self.clientKey(ofAddress: address ?? "")
        try watched.withLock { watched throws(HTTPError) in
            var variants = watched[client, default: [:]]
            guard variants[variant] != nil || variants.count < perClient else {
                throw HTTPError(
                    429, "You already watch \(perClient) live queries; close one (its tab or its \u{201C}Watch live\u{201D} page) to watch another.",
                    headers: ["Retry-After": "5"]
                )
            }
            variants[variant, default: 0] += 1
            watched[client] = variants
        }
        stream.onTermination { [weak self] in self?.release(variant, client: client) }
    }

    /// Variants `address`'s client watches now.
    func watchedCount(ofAddress address: String) -> Int {
        watched.withLock { $0[Self.clientKey(ofAddress: address)]?.count ?? 0 }
    }

    private func release(_ variant: PageVariant, client: String) {
        watched.withLock { watched in
            guard var variants = watched[client], let streams = variants[variant] else { return }
            variants[variant] = streams > 1 ? streams - 1 : nil
            watched[client] = variants.isEmpty ? nil : variants
        }
    }

    /// The key a client's watches count under: an IPv4 address as it is, an IPv6 address's first
    /// 64 bits (`2001:db8:1:2::/64`), the IPv4 address an IPv4-mapped one (`::ffff:192.0.2.1`)
    /// carries; any other text as it is.
    static func clientKey(ofAddress address: String) -> String {
        // A zone (`fe80::1%eth0`) and brackets are not part of the address.
        var text = Substring(address)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let percent = text.firstIndex(of: "%") { text = text[..<percent] }
        guard text.contains(":") else { return String(text) }
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, String(text), &bytes) == 1 else { return String(text) }
        let octets = withUnsafeBytes(of: &bytes) { Array($0) }
        if octets[0..<10].allSatisfy({ $0 == 0 }), octets[10] == 0xff, octets[11] == 0xff {
            return octets[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(octets[$0]) << 8 | UInt16(octets[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
