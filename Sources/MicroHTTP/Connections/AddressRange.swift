/// A block of IPv4 or IPv6 addresses in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`), or one
/// address (`192.0.2.7`, a /32 or /128): how trusted proxies are named (`--trusted-proxy`).
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    private let prefix: [UInt8]
    private let length: Int
    private let isIPv6: Bool

    /// Parses `text`; nil when it is not an address, optionally followed by `/` and a prefix length
    /// of at most 32 (IPv4) or 128 (IPv6).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = PeerAddress(text: parts[0]) else { return nil }
        let octets = address.octets
        let maximum = octets.count * 8
        var length = maximum
        if parts.count == 2 {
            guard parts[1].utf8.count <= 3, parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let bits = Int(parts[1]), bits <= maximum else { return nil }
            length = bits
        }
        self.length = length
        self.isIPv6 = address.isIPv6
        self.prefix = Self.masked(octets, to: length)
    }

    /// Whether `address` lies in the range. An IPv4 address never matches an IPv6 range nor the
    /// other way round, except that an IPv4-mapped IPv6 address (`::ffff:192.0.2.7`, what an IPv6
    /// socket reports for an IPv4 peer) matches as its IPv4 address.
    func contains(_ address: PeerAddress) -> Bool {
        var octets = address.octets
        if !isIPv6, octets.count == 16, octets[0..<10].allSatisfy({ $0 == 0 }), octets[10] == 0xff, octets[11] == 0xff {
            octets = Array(octets[12..<16])
        }
        guard octets.count == prefix.count else { return false }
        return Self.masked(octets, to: length) == prefix
    }

    /// The range as CIDR text, e.g. `10.0.0.0/8`.
    public var description: String {
        let address = prefix.count == 4 ? prefix.map(String.init).joined(separator: ".") : Self.ipv6Text(prefix)
        return address + "/" + String(length)
    }

    private static func masked(_ octets: [UInt8], to length: Int) -> [UInt8] {
        octets.enumerated().map { index, octet in
            let bits = min(8, max(0, length - index * 8))
            return bits == 8 ? octet : octet & UInt8(truncatingIfNeeded: 0xff << (8 - bits))
        }
    }

    private static func ipv6Text(_ octets: [UInt8]) -> String {
        stride(from: 0, to: 16, by: 2).map { String(UInt16(octets[$0]) << 8 | UInt16(octets[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}
