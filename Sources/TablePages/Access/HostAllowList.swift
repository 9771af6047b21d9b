import MicroHTTP

/// The host names a request's `Host` header may carry; any other gets 421 Misdirected Request.
///
/// A browser tricked by DNS rebinding sends the attacker's name (`Host: evil.example`) to this
/// server, so refusing unknown names keeps other sites from reading the pages through the
/// user's browser. The port is ignored; names compare without regard to case.
///
///     let hosts = HostAllowList(["tables.example.com", "*.internal.example"])
///     hosts.allows(hostHeader: "Tables.Example.com:8080")   // true
///     hosts.allows(hostHeader: "evil.example")              // false
public struct HostAllowList: Sendable, Equatable {
    /// The names a loopback-only server answers for by default: `localhost` and the loopback
    /// addresses, which a browser only sends to its own machine.
    public static let loopbackNames = ["localhost", "127.0.0.1", "[::1]"]

    private let exact: Set<String>
    /// `.example.com` for a pattern `*.example.com`.
    private let suffixes: [String]
    private let allowsAny: Bool

    /// An allow list of `names`: host names, IPv4 addresses, bracketed IPv6 addresses, `*.suffix`
    /// for every name under a domain, or `*` for any host (only behind a proxy that checks `Host`).
    /// Names that cannot be a host are left out.
    public init(_ names: [String]) {
        var exact: Set<String> = []
        var suffixes: [String] = []
        var allowsAny = false
        for name in names {
            if name == "*" {
                allowsAny = true
            } else if name.hasPrefix("*."), let suffix = Self.hostName(fromHeader: String(name.dropFirst(2))) {
                suffixes.append("." + suffix)
            } else if let host = Self.hostName(fromHeader: name) {
                exact.insert(host)
            }
        }
        self.exact = exact
        self.suffixes = suffixes
        self.allowsAny = allowsAny
    }

    /// Whether `pattern` is something ``init(_:)`` keeps: a host, `*.` and a host, or `*`.
    public static func isValidPattern(_ pattern: String) -> Bool {
        pattern == "*" || hostName(fromHeader: pattern.hasPrefix("*.") ? String(pattern.dropFirst(2)) : pattern) != nil
    }

    /// The names allowed by default for a server listening on `address`: the loopback names,
    /// and `address` itself when it is one particular address rather than every interface.
    ///
    ///     HostAllowList.defaultNames(listeningOn: "0.0.0.0")      // the loopback names
    ///     HostAllowList.defaultNames(listeningOn: "192.0.2.7")    // … and "192.0.2.7"
    public static func defaultNames(listeningOn address: String) -> [String] {
        switch address {
        case "", "0.0.0.0", "::", "[::]", "127.0.0.1", "::1", "[::1]", "localhost":
            return loopbackNames
        default:
            let literal = address.contains(":") && !address.hasPrefix("[") ? "[" + address + "]" : address
            return loopbackNames + [literal]
        }
    }

    /// Whether a request whose `Host` header is `hostHeader` is for this server.
    public func allows(hostHeader: String?) -> Bool {
        if allowsAny { return true }
        guard let hostHeader, let host = Self.hostName(fromHeader: hostHeader) else { return false }
        if exact.contains(host) { return true }
        return suffixes.contains { host.hasSuffix($0) && host.utf8.count > $0.utf8.count }
    }

    /// The 421 answer to `request` when its `Host` is not allowed, or nil when it is (or absent).
    ///
    /// The health checks stay open to any `Host`: orchestrators probe them by the container's
    /// address, and they reveal nothing.
    func refusal(for request: Request) -> Response? {
        // No `Host` at all (HTTP/1.0, an in-process request) is no browser's: browsers always
        // send the name they resolved, which is what a rebinding attack cannot hide. MicroHTTP has
        // already refused an HTTP/1.1 request without one, with two, or with a spaced field name.
        guard let host = request.headers["Host"] else { return nil }
        if allows(hostHeader: host) || request.path == "/healthz" || request.path == "/readyz" { return nil }
        let shown = host.unicodeScalars.count > 100 ? String(host.unicodeScalars.prefix(100)) + "\u{2026}" : host
        return .error(
            421,
            "This server does not answer for the host \u{201C}\(shown)\u{201D}. If that name is really this server's, "
                + "its operator can allow it (tablepages serve --allowed-host NAME).",
            for: request
        )
    }

    /// The host of a `Host` header (or an origin's authority), lowercased, without its port and
    /// a trailing dot; nil when it is not a well-formed host: a name of letters, digits, `-`, `_`
    /// and `.`, or a bracketed IPv6 address, optionally followed by `:` and at most five digits.
    static func hostName(fromHeader header: String) -> String? {
        // Runs for every request: bytes, not Characters (grapheme breaking and Unicode lowercasing
        // cost thousands of instructions). Any byte past ASCII fails one of the checks below.
        var header = header
        return header.withUTF8(hostName(fromUTF8:))
    }

    private static func hostName(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.count <= 260 else { return nil }
        var nameEnd: Int
        var portStart = bytes.count
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let inside = bytes[1..<close]
            guard !inside.isEmpty, inside.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return nil }
            nameEnd = close + 1
            if nameEnd < bytes.count {
                guard bytes[nameEnd] == UInt8(ascii: ":") else { return nil }
                portStart = nameEnd + 1
            }
        } else {
            nameEnd = bytes.count
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                nameEnd = colon
                portStart = colon + 1
            }
            if nameEnd > 0 && bytes[nameEnd - 1] == UInt8(ascii: ".") { nameEnd -= 1 }
            guard nameEnd > 0, bytes[..<nameEnd].allSatisfy(isNameByte) else { return nil }
        }
        let port = bytes[portStart...]
        guard port.count <= 5, port.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        // Every byte of the name is ASCII here, so ASCII lowercasing is all lowercasing does.
        return String(unsafeUninitializedCapacity: nameEnd) { name in
            for index in 0..<nameEnd {
                let byte = bytes[index]
                name[index] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
            }
            return nameEnd
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: false
        }
    }
}
