import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Parses a numeric IPv4 or IPv6 address (`192.0.2.1`, `2001:db8::1`); nil for anything else.
    init?(text: some StringProtocol) {
        var bytes: (UInt64, UInt64) = (0, 0)
        // Brackets (`[::1]`, as in a URL) and a zone (`fe80::1%eth0`) are not part of the address.
        var trimmed = Substring(text)
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") { trimmed = trimmed.dropFirst().dropLast() }
        if let percent = trimmed.firstIndex(of: "%") { trimmed = trimmed[..<percent] }
        let text = String(trimmed)
        // inet_pton reads a C string: text with a NUL in it would be read only up to the NUL.
        guard !text.isEmpty, text.utf8.count <= 45, !text.utf8.contains(0) else { return nil }
        let family: Int32 = text.contains(":") ? AF_INET6 : AF_INET
        let parsed = withUnsafeMutableBytes(of: &bytes) { inet_pton(family, text, $0.baseAddress) }
        guard parsed == 1 else { return nil }
        self.family = family
        self.bytes = bytes
    }

    private init(family: Int32, bytes: (UInt64, UInt64)) {
        self.family = family
        self.bytes = bytes
    }

    /// Whether this is an IPv6 address (an IPv4-mapped one included).
    var isIPv6: Bool { family == AF_INET6 }

    /// The address bytes in network order: 4 for IPv4, 16 for IPv6.
    var octets: [UInt8] {
        withUnsafeBytes(of: bytes) { Array($0.prefix(family == AF_INET ? 4 : 16)) }
    }

    /// What per-client limits count by: the address itself for IPv4, its /64 for IPv6 (one
    /// subscriber usually holds a whole /64, and picks any address in it at will). An IPv4 address
    /// mapped into IPv6 (`::ffff:a.b.c.d`) counts as that IPv4 address.
    var clientKey: PeerAddress {
        guard family == AF_INET6 else { return self }
        let octets = self.octets
        if octets[0..<10].allSatisfy({ $0 == 0 }), octets[10] == 0xff, octets[11] == 0xff {
            var v4: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: octets[12..<16]) }
            return PeerAddress(family: AF_INET, bytes: v4)
        }
        // The first 8 bytes are the /64 prefix, in memory order.
        return PeerAddress(family: family, bytes: (bytes.0, 0))
    }

    /// The text of ``clientKey``: the IPv4 address, or the IPv6 /64 as `2001:db8:1:2::/64`.
    var clientKeyText: String? {
        let key = clientKey
        guard key.family == AF_INET6, let text = key.text else { return key.text }
        return text + "/64"
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
