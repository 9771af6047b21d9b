import HostileTextSupport
@testable import MicroHTTP
import PropertyBased
import Testing

/// Who a request comes from behind trusted proxies: CIDR matching, the forwarding headers' parsing,
/// and the right-most address that is not a trusted proxy.
@Suite("Forwarded clients")
struct ForwardedClientTests {
    private static let proxy = PeerAddress(text: "10.0.0.5")!
    private static let trusted = [AddressRange("10.0.0.0/8")!, AddressRange("fd00::/8")!]

    private static func client(_ headers: HTTPHeaders, peer: PeerAddress = proxy, trusted: [AddressRange] = trusted) -> ForwardedClient {
        ForwardedClient.resolve(peer: peer, headers: headers, trusted: trusted)
    }

    @Test("CIDR ranges: IPv4 and IPv6 prefixes, single addresses, IPv4-mapped peers; malformed ranges refused")
    func addressRanges() throws {
        let v4 = try #require(AddressRange("192.168.16.0/20"))
        #expect(v4.contains(PeerAddress(text: "192.168.31.255")!))
        #expect(!v4.contains(PeerAddress(text: "192.168.32.0")!))
        #expect(v4.contains(PeerAddress(text: "::ffff:192.168.16.1")!))
        #expect(!v4.contains(PeerAddress(text: "2001:db8::1")!))
        let v6 = try #require(AddressRange("2001:db8:1::/48"))
        #expect(v6.contains(PeerAddress(text: "2001:db8:1:ffff::1")!))
        #expect(!v6.contains(PeerAddress(text: "2001:db8:2::1")!))
        #expect(!v6.contains(PeerAddress(text: "192.168.16.1")!))
        let one = try #require(AddressRange("127.0.0.1"))
        #expect(one.contains(PeerAddress(text: "127.0.0.1")!) && !one.contains(PeerAddress(text: "127.0.0.2")!))
        #expect(AddressRange("0.0.0.0/0")!.contains(PeerAddress(text: "203.0.113.9")!))
        #expect(AddressRange("10.1.2.3/8")?.description == "10.0.0.0/8")
        for bad in ["", "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0/8", "example.com", "10.0.0.0/8/8", "10.0.0.0/+8", "1.2.3.4\u{0}/8"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test("IPv6 clients are counted by /64; IPv4-mapped ones as IPv4")
    func clientKeys() {
        #expect(PeerAddress(text: "2001:db8:1:2:aaaa::1")!.clientKey == PeerAddress(text: "2001:db8:1:2:bbbb::9")!.clientKey)
        #expect(PeerAddress(text: "2001:db8:1:2::1")!.clientKey != PeerAddress(text: "2001:db8:1:3::1")!.clientKey)
        #expect(PeerAddress(text: "2001:db8:1:2:aaaa::1")!.clientKeyText == "2001:db8:1:2::/64")
        #expect(PeerAddress(text: "::ffff:192.0.2.1")!.clientKey == PeerAddress(text: "192.0.2.1")!)
        #expect(PeerAddress(text: "192.0.2.1")!.clientKeyText == "192.0.2.1")
        var request = Request(method: .get, path: "/", pathSegments: [], remoteAddress: "2001:db8:1:2::7")
        #expect(request.clientKey == "2001:db8:1:2::/64")
        request.remoteAddress = "192.0.2.1"
        #expect(request.clientKey == "192.0.2.1")
        for (address, key) in [("::ffff:192.0.2.1", "192.0.2.1"), ("2001:DB8:0:0:1::1", "2001:db8::/64"),
                                ("[2001:db8:1:2::3%eth0]", "2001:db8:1:2::/64"), ("not an address", "not an address")] {
            request.remoteAddress = address
            #expect(request.clientKey == key, "\(address)")
        }
    }

    @Test("Two IPv6 addresses share a client key exactly when their first 64 bits are equal")
    func clientKeysOfAnyTwoAddresses() async {
        // Networks from a few values, so that two addresses often share one; hosts from any.
        let address = zip(Gen<UInt16>.value(in: 1...2).array(of: 4), Gen<UInt16>.value().array(of: 4)).map { $0 + $1 }
        await propertyCheckFailingOnThrow(input: address, address) { left, right in
            let key = { (groups: [UInt16]) in
                Request(method: .get, path: "/", pathSegments: [], remoteAddress: groups.map { String($0, radix: 16) }.joined(separator: ":")).clientKey
            }
            let sameHost = Array(left.prefix(4) + right.suffix(4))
            #expect(key(left) == key(sameHost))
            #expect((key(left) == key(right)) == (left.prefix(4) == right.prefix(4)))
        }
    }

    @Test("Connections per client: counted by /64, trusted proxies exempt, a closed one gives its place back")
    func connectionsPerClient() throws {
        let counts = ConnectionsPerClient(limit: 2, trusted: Self.trusted)
        let first = counts.opened(PeerAddress(text: "2001:db8:1:2::1"))
        #expect(first.admitted && first.key != nil)
        #expect(counts.opened(PeerAddress(text: "2001:db8:1:2:ffff::2")).admitted)
        #expect(!counts.opened(PeerAddress(text: "2001:db8:1:2::3")).admitted)
        #expect(counts.opened(PeerAddress(text: "2001:db8:1:3::1")).admitted)
        for _ in 0..<10 { #expect(counts.opened(Self.proxy) == (key: nil, admitted: true)) }
        counts.closed(try #require(first.key))
        #expect(counts.opened(PeerAddress(text: "2001:db8:1:2::3")).admitted)
        #expect(ConnectionsPerClient(limit: 0, trusted: []).opened(PeerAddress(text: "192.0.2.1")) == (key: nil, admitted: true))
    }

    @Test("The right-most address that is not a trusted proxy is the client; untrusted peers' headers are ignored")
    func rightMostUntrusted() {
        #expect(Self.client(["X-Forwarded-For": "203.0.113.9"]).address == PeerAddress(text: "203.0.113.9"))
        // What the client wrote itself is left of what the proxy appended.
        #expect(Self.client(["X-Forwarded-For": "1.1.1.1, 203.0.113.9"]).address == PeerAddress(text: "203.0.113.9"))
        #expect(Self.client(["X-Forwarded-For": "1.1.1.1, 203.0.113.9, 10.9.9.9"]).address == PeerAddress(text: "203.0.113.9"))
        #expect(Self.client(["X-Forwarded-For": "1.1.1.1", "x-forwarded-for": "203.0.113.9"]).address == PeerAddress(text: "203.0.113.9"))
        #expect(Self.client(["X-Forwarded-For": "[2001:db8::7]:443"]).address == PeerAddress(text: "2001:db8::7"))
        #expect(Self.client(["X-Forwarded-For": "203.0.113.9:5000"]).address == PeerAddress(text: "203.0.113.9"))
        #expect(Self.client(["Forwarded": "for=1.1.1.1, for=\"[2001:db8::7]:4711\";proto=https"]) == ForwardedClient(address: PeerAddress(text: "2001:db8::7"), isSecure: true))
        #expect(Self.client(["Forwarded": "For=203.0.113.9;by=10.0.0.5"]).address == PeerAddress(text: "203.0.113.9"))
        // Every hop trusted: the left-most.
        #expect(Self.client(["X-Forwarded-For": "10.1.1.1, 10.2.2.2"]).address == PeerAddress(text: "10.1.1.1"))
        // Not from a trusted proxy, or none configured: the socket's peer, whatever the header says.
        let stranger = PeerAddress(text: "198.51.100.1")!
        #expect(Self.client(["X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"], peer: stranger) == ForwardedClient(address: stranger, isSecure: false))
        #expect(Self.client(["X-Forwarded-For": "203.0.113.9"], trusted: []).address == Self.proxy)
    }

    @Test("Malformed, obfuscated or doubled forwarding headers never name another client: the walk stops at the trusted hop")
    func malformedHeaders() {
        for value in ["", "unknown", "garbage", "203.0.113.9:", "203.0.113.9:99999999", "[2001:db8::7", "1.2.3.4.5", "_hidden", "203.0.113.9\u{0}"] {
            #expect(Self.client(["X-Forwarded-For": value]).address == Self.proxy, "\(value)")
        }
        #expect(Self.client(["X-Forwarded-For": "203.0.113.9, unknown"]).address == Self.proxy)
        #expect(Self.client(["X-Forwarded-For": "unknown, 203.0.113.9"]).address == PeerAddress(text: "203.0.113.9"))
        #expect(Self.client(["Forwarded": "for=unknown"]).address == Self.proxy)
        #expect(Self.client(["Forwarded": "for=\"203.0.113.9"]).address == Self.proxy)
        #expect(Self.client(["Forwarded": "for=_hidden;proto=https"]) == ForwardedClient(address: Self.proxy, isSecure: true))
        // Both kinds at once: one may be the client's own; neither is believed.
        #expect(Self.client(["X-Forwarded-For": "203.0.113.9", "Forwarded": "for=198.51.100.7"]).address == Self.proxy)
    }

    @Test("X-Forwarded-Proto counts only from a trusted proxy, and only https")
    func secure() {
        #expect(Self.client(["X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"]).isSecure)
        #expect(Self.client(["X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "HTTPS"]).isSecure)
        #expect(!Self.client(["X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "http"]).isSecure)
        #expect(Self.client(["X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "http, https"]).isSecure)
        #expect(!Self.client(["X-Forwarded-For": "203.0.113.9"]).isSecure)
    }

    @Test("Arbitrary header text never crashes and names either the proxy or an address the text holds")
    func arbitraryHeaders() async {
        await propertyCheckFailingOnThrow(input: HostileText.text, Gen.int(in: 0...2)) { text, kind in
            let name = ["X-Forwarded-For", "Forwarded", "X-Forwarded-Proto"][kind]
            let resolved = Self.client(HTTPHeaders(dictionaryLiteral: (name, text)))
            guard let address = resolved.address, address != Self.proxy else { return }
            let shown = try #require(address.text)
            // The text as written, or its IPv6 address written another way: either way a parse of part of it.
            #expect(text.contains(shown) || address.isIPv6, "\(text.debugDescription) gave \(shown)")
            #expect(!ForwardedClient.isTrusted(address, Self.trusted) || text.contains(shown))
        }
    }

    @Test("For any chain, the client is the right-most untrusted entry, or the left-most when all are trusted")
    func chains() async {
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...0xFFFFFF).array(of: 1...8)) { hops in
            // Bit 0: trusted or not; the other bits: the address.
            let addresses = hops.map { hop in
                hop & 1 == 0 ? "10.\(hop >> 1 & 0xff).\(hop >> 9 & 0xff).1" : "203.\(hop >> 1 & 0xff).\(hop >> 9 & 0xff).9"
            }
            let resolved = Self.client(["X-Forwarded-For": addresses.joined(separator: ", ")])
            let expected = addresses.last(where: { !$0.hasPrefix("10.") }) ?? addresses[0]
            #expect(resolved.address == PeerAddress(text: expected), "\(addresses)")
        }
    }
}
