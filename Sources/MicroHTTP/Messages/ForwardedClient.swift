/// The client a request comes from when reverse proxies stand between it and the server: the
/// address a trusted proxy names in `X-Forwarded-For` or `Forwarded` (RFC 7239), and whether the
/// proxy received it over TLS (`X-Forwarded-Proto: https`, `Forwarded: proto=https`).
///
/// Only proxies in the configured ranges are believed. The chain is read from the right: the socket's
/// peer, then each address the proxies appended, until one is not a trusted proxy; that one is the
/// client. Whatever a client wrote into the header itself sits to the left of what the proxies
/// appended, so it is never reached while an untrusted address comes first. A malformed or
/// obfuscated (`unknown`, `_hidden`) entry stops the walk at the trusted hop to its right, and a
/// request carrying both headers believes neither (a proxy sets one; the other could come from the
/// client as it is), so a bad header only ever makes the client its proxy, never another client.
struct ForwardedClient: Equatable {
    /// The client's address, or nil when the socket's peer is not known.
    var address: PeerAddress?
    /// Whether a trusted proxy said it received the request over TLS.
    var isSecure: Bool

    /// Entries read from a forwarding header at most: a longer chain is cut to its right-most ones,
    /// which are the only ones a walk through a few proxies reaches.
    static let maximumHops = 64

    /// Resolves the client of a request from `peer` with `headers`, believing proxies in `trusted`.
    static func resolve(peer: PeerAddress?, headers: HTTPHeaders, trusted: [AddressRange]) -> ForwardedClient {
        guard let peer, !trusted.isEmpty, isTrusted(peer, trusted) else { return ForwardedClient(address: peer, isSecure: false) }
        let forwardedFor = headers.values(for: "X-Forwarded-For")
        let forwarded = headers.values(for: "Forwarded")
        let chain: [Substring?]
        let isSecure: Bool
        switch (forwardedFor.isEmpty, forwarded.isEmpty) {
        case (false, true):
            chain = xForwardedForChain(forwardedFor)
            isSecure = lastListElement(headers.values(for: "X-Forwarded-Proto"))?.lowercased() == "https"
        case (true, false):
            let elements = forwardedElements(forwarded)
            chain = elements.map(\.node)
            isSecure = elements.last?.proto?.lowercased() == "https"
        default:
            return ForwardedClient(address: peer, isSecure: false)
        }
        return ForwardedClient(address: rightmostUntrusted(chain, peer: peer, trusted: trusted), isSecure: isSecure)
    }

    /// The client in `chain` (left to right, as the header lists it) behind the trusted `peer`.
    static func rightmostUntrusted(_ chain: [Substring?], peer: PeerAddress, trusted: [AddressRange]) -> PeerAddress {
        var client = peer
        for entry in chain.reversed() {
            guard let entry, let address = nodeAddress(entry) else { return client }
            client = address
            if !isTrusted(address, trusted) { return address }
        }
        return client
    }

    static func isTrusted(_ address: PeerAddress, _ trusted: [AddressRange]) -> Bool {
        trusted.contains { $0.contains(address) }
    }

    /// The entries of every `X-Forwarded-For` field, in order, at most ``maximumHops`` of them.
    static func xForwardedForChain(_ fields: [String]) -> [Substring?] {
        let entries = fields.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        return entries.suffix(maximumHops).map { $0.trimmingWhitespace() }
    }

    /// The right-most element of a comma-separated list spread over `fields`, trimmed.
    static func lastListElement(_ fields: [String]) -> Substring? {
        fields.last?.split(separator: ",", omittingEmptySubsequences: false).last?.trimmingWhitespace()
    }

    /// One element of a `Forwarded` field: its `for` (the node) and `proto` parameters, unquoted; a parameter
    /// that is malformed is nil.
    struct ForwardedElement: Equatable {
        var node: Substring?
        var proto: Substring?
    }

    /// The elements of every `Forwarded` field, in order, at most ``maximumHops`` of them. Commas
    /// and semicolons inside quoted strings do not split.
    static func forwardedElements(_ fields: [String]) -> [ForwardedElement] {
        var elements: [ForwardedElement] = []
        for field in fields {
            for element in splitOutsideQuotes(Substring(field), at: ",") {
                var parsed = ForwardedElement()
                for pair in splitOutsideQuotes(element, at: ";") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    let name = pair[..<equals].trimmingWhitespace().lowercased()
                    let value = unquoted(pair[pair.index(after: equals)...].trimmingWhitespace())
                    if name == "for" { parsed.node = value } else if name == "proto" { parsed.proto = value }
                }
                elements.append(parsed)
            }
        }
        return Array(elements.suffix(maximumHops))
    }

    /// The address of a node as forwarding headers write it: `192.0.2.7`, `192.0.2.7:8080`,
    /// `2001:db8::1`, `[2001:db8::1]` or `[2001:db8::1]:8080`; nil for anything else, `unknown`
    /// and obfuscated names included.
    static func nodeAddress(_ node: Substring) -> PeerAddress? {
        guard !node.isEmpty, node.utf8.count <= 64 else { return nil }
        if node.first == "[" {
            guard let close = node.firstIndex(of: "]") else { return nil }
            let rest = node[node.index(after: close)...]
            guard rest.isEmpty || isPort(rest.dropFirst()) && rest.first == ":" else { return nil }
            let inner = node[node.index(after: node.startIndex)..<close]
            guard inner.contains(":") else { return nil }
            return PeerAddress(text: inner)
        }
        if let colon = node.firstIndex(of: ":"), node.lastIndex(of: ":") == colon {
            // One colon: an IPv4 address with a port (an IPv6 address has at least two).
            guard isPort(node[node.index(after: colon)...]) else { return nil }
            return PeerAddress(text: node[..<colon]).flatMap { $0.isIPv6 ? nil : $0 }
        }
        return PeerAddress(text: node)
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 5 && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// `value` without its double quotes and backslash escapes; nil when a quote is unbalanced.
    static func unquoted(_ value: Substring) -> Substring? {
        guard value.first == "\"" else { return value.contains("\"") ? nil : value }
        var result = ""
        var escaped = false
        var closed = false
        for character in value.dropFirst() {
            if closed { return nil }
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                closed = true
            } else {
                result.append(character)
            }
        }
        return closed ? Substring(result) : nil
    }

    private static func splitOutsideQuotes(_ text: Substring, at separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted, character == separator {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        parts.append(text[start...])
        return parts
    }
}

extension Substring {
    /// Without spaces and tabs at either end (the optional whitespace of HTTP fields).
    func trimmingWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
