import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A resolved IPv4 or IPv6 listening address, stored as raw `sockaddr` bytes for libmicrohttpd.
struct SocketAddress: Sendable {
    let storage: [UInt8]
    let isIPv6: Bool

    /// Resolves `host` (numeric or a name) for `port`; nil when it does not resolve.
    init?(host: String, port: Int) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else { return nil }
        defer { freeaddrinfo(result) }
        guard let address = info.pointee.ai_addr else { return nil }
        storage = Array(UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))
        isIPv6 = info.pointee.ai_family == AF_INET6
    }

    /// Calls `body` with a pointer to the `sockaddr`.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        storage.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }
}

/// A peer's IPv4 or IPv6 address as raw bytes, small enough to keep in every ``Request`` and
/// formatted as text only when asked for. Hashable, so limits can be counted per client.
struct PeerAddress: Sendable, Hashable {
    private let family: Int32
    // The 4 or 16 address bytes (in network order), as in `in_addr` / `in6_addr`.
    private let bytes: (UInt64, UInt64)

    /// Copies the address out of `address`; nil for a family other than IPv4 and IPv6.
    init?(_ address: UnsafePointer<sockaddr>) {
        let family = Int32(address.pointee.sa_family)
        var bytes: (UInt64, UInt64) = (0, 0)
        let base = UnsafeRawPointer(address)
        switch family {
        case AF_INET:
            let inet = base.assumingMemoryBound(to: sockaddr_in.self)
            withUnsafeMutableBytes(of: &bytes) { target in
                withUnsafeBytes(of: inet.pointee.sin_addr) { target.copyMemory(from: $0) }
            }
        case AF_INET6:
            let inet6 = base.assumingMemoryBound(to: sockaddr_in6.self)
            withUnsafeMutableBytes(of: &bytes) { target in
                withUnsafeBytes(of: inet6.pointee.sin6_addr) { target.copyMemory(from: $0) }
            }
        default:
            return nil
        }
        self.family = family
        self.bytes = bytes
    }

    static func == (lhs: PeerAddress, rhs: PeerAddress) -> Bool {
        lhs.family == rhs.family && lhs.bytes == rhs.bytes
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
    }

    /// The numeric text form, e.g. `127.0.0.1` or `::1`.
    var text: String? {
        withUnsafeBytes(of: bytes) { address in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
                guard inet_ntop(family, address.baseAddress, buffer.baseAddress, socklen_t(buffer.count)) != nil else { return nil }
                return String(cString: buffer.baseAddress!)
            }
        }
    }
}
