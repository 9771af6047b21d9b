import MicroHTTP

/// Refuses mutating requests that a browser sent on behalf of another site.
///
/// A browser names the page that caused a request in `Origin` (and, in current browsers,
/// `Sec-Fetch-Site`); page scripts cannot forge either. A write passes when its `Origin` is this
/// server's own (`http` or `https` with the request's `Host`, since TLS may end at a proxy) or a
/// listed CORS origin, or, without `Origin`, when `Sec-Fetch-Site` is `same-origin` or `none`
/// (the user typed it). A request with neither header is no browser's (curl, a script) and
/// passes: it carries no cookies a user did not give it.
struct CrossSiteCheck: Sendable {
    /// The origins besides the server's own whose scripts may write (see ``CORSPolicy``).
    let corsOrigins: CORSPolicy

    /// Throws 403 when `request` came from a browser on another site.
    func check(_ request: Request) throws(HTTPError) {
        if let origin = request.headers["Origin"] {
            if Self.isSameOrigin(origin, host: request.headers["Host"]) || corsOrigins.allows(origin: origin) { return }
            throw HTTPError(403, "This request came from another site's page (Origin \(Self.shown(origin))); it was refused and nothing changed.")
        }
        switch request.headers[HTTPHeaders.fetchSite]?.lowercased() {
        case nil, "same-origin", "none":
            return
        case let site?:
            throw HTTPError(403, "This request came from another site's page (\(HTTPHeaders.fetchSite): \(Self.shown(site))); it was refused and nothing changed.")
        }
    }

    /// Whether `origin` (`scheme://host[:port]`) names this server as reached through `host`,
    /// the request's `Host` header: the same host name and the same port, a missing one being
    /// the scheme's default.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let own = Authority(host, scheme: "http"), let theirs = Authority(origin: origin) else { return false }
        if theirs.host != own.host { return false }
        // `Host: example.com` reaches this server through a proxy on 80 or 443 alike, so an
        // origin on either default port matches a `Host` without a port.
        return theirs.port == own.port || (own.explicitPort == nil && theirs.explicitPort == nil)
    }

    /// A header value as shown in an error message: short, so a huge header is not echoed.
    static func shown(_ value: String) -> String {
        value.unicodeScalars.count > 100 ? String(value.unicodeScalars.prefix(100)) + "\u{2026}" : value
    }
}

/// A host and port, as `Host` and `Origin` name them.
struct Authority: Equatable {
    /// The lowercased host, as ``HostAllowList`` normalizes it.
    let host: String
    /// The port written, if any.
    let explicitPort: Int?
    /// The port written or the scheme's default.
    let port: Int

    /// Parses `authority` (`host[:port]`) for `scheme` (`http` or `https`).
    init?(_ authority: some StringProtocol, scheme: String) {
        guard let host = HostAllowList.hostName(fromHeader: String(authority)) else { return nil }
        self.host = host
        // The parser accepted at most five digits after the host's last `:` outside brackets.
        var explicitPort: Int?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            explicitPort = Int(authority[authority.index(after: colon)...])
        }
        if let port = explicitPort, port > 65_535 { return nil }
        self.explicitPort = explicitPort
        self.port = explicitPort ?? (scheme == "https" ? 443 : 80)
    }

    /// Parses a serialized origin, `scheme://host[:port]`; nil for `null`, other schemes, paths,
    /// user info and anything malformed.
    init?(origin: String) {
        let scheme: String
        let rest: Substring
        if origin.lowercased().hasPrefix("http://") {
            (scheme, rest) = ("http", origin.dropFirst(7))
        } else if origin.lowercased().hasPrefix("https://") {
            (scheme, rest) = ("https", origin.dropFirst(8))
        } else {
            return nil
        }
        self.init(rest, scheme: scheme)
    }
}
