/// One HTTP request as a handler sees it: fully received, decoded, and independent of the connection.
///
///     router.on(.get, "/pages/:page") { request in
///         let page = request.parameters["page"]!     // decoded path segment
///         let layout = request.query["layout"]       // decoded query value
///         …
///     }
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path as sent, still percent-encoded and without the query, e.g. `/pages/todo%20list`.
    public var path: String
    /// The path's segments, each percent-decoded, e.g. `["pages", "todo list"]`.
    public var pathSegments: [String]
    /// The path parameters the matching route captured, decoded, e.g. `["page": "todo list"]`.
    public var parameters: [String: String]
    /// The query items in order, decoded (`+` counts as a space); a key without `=` has an empty value.
    public var queryItems: [(name: String, value: String)] {
        didSet { query = Self.query(queryItems) }
    }
    /// The query items by name; where a name repeats, the last value wins. Built once, with
    /// ``queryItems``: handlers, middleware and the router read it without building it again.
    public private(set) var query: [String: String]
    /// Whether the query string holds a malformed percent-escape (`?a=C%Z`) or escapes that are
    /// not UTF-8: ``queryItems`` then keep such an escape as sent and hold U+FFFD for such bytes.
    /// Only routes added with `keepingMalformedEscapes` see such a request; the router refuses it
    /// (400) for every other route.
    public var queryHasMalformedEscape = false
    /// The request's header fields.
    public var headers: HTTPHeaders
    /// The cookies the client sent, by name.
    public var cookies: [String: String]
    /// The request body; empty when there was none.
    public var body: [UInt8]
    /// Whether the request reached the site over TLS, as a trusted proxy said
    /// (``ServerConfiguration/trustedProxies``): its `X-Forwarded-Proto: https` or `Forwarded: proto=https`.
    public var isSecure: Bool = false

    /// The client's address, e.g. `127.0.0.1` or `::1`, when known: the socket's peer, or the
    /// client a trusted proxy names (``ServerConfiguration/trustedProxies``).
    public var remoteAddress: String? {
        get {
            switch remote {
            case .text(let text): text
            case .socket(let address): address.text
            }
        }
        set { remote = .text(newValue) }
    }

    /// What per-client limits count by: ``remoteAddress`` for IPv4, its /64 for IPv6
    /// (`2001:db8:1:2::/64`), as one subscriber holds a whole /64; nil when the address is unknown.
    public var clientKey: String? {
        switch remote {
        case .socket(let address): address.clientKeyText
        case .text(let text): text.flatMap { PeerAddress(text: $0) }?.clientKeyText ?? text
        }
    }

    /// The client's address as bytes, when the server took it from the connection.
    var clientAddress: PeerAddress? {
        if case .socket(let address) = remote { return address }
        return nil
    }

    /// Where ``remoteAddress`` comes from: the server keeps the peer's raw address and formats it
    /// only when someone asks, which most requests never do.
    enum Remote: Sendable {
        case text(String?)
        case socket(PeerAddress)
    }

    var remote: Remote

    /// Creates a request; the server does this, tests may too.
    public init(
        method: HTTPMethod, path: String, pathSegments: [String], parameters: [String: String] = [:],
        queryItems: [(name: String, value: String)] = [], headers: HTTPHeaders = [:],
        cookies: [String: String] = [:], body: [UInt8] = [], remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.pathSegments = pathSegments
        self.parameters = parameters
        self.queryItems = queryItems
        self.query = Self.query(queryItems)
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.remote = .text(remoteAddress)
    }

    /// The server's initializer: the peer's address stays raw until asked for.
    init(
        method: HTTPMethod, path: String, pathSegments: [String], queryItems: [(name: String, value: String)],
        headers: HTTPHeaders, cookies: [String: String], body: [UInt8], client: ForwardedClient
    ) {
        self.method = method
        self.path = path
        self.pathSegments = pathSegments
        self.parameters = [:]
        self.queryItems = queryItems
        self.query = Self.query(queryItems)
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.remote = client.address.map { .socket($0) } ?? .text(nil)
        self.isSecure = client.isSecure
    }

    /// `items` by name, the last value of a name that repeats winning.
    private static func query(_ items: [(name: String, value: String)]) -> [String: String] {
        // Most requests have no query: no dictionary to build.
        guard !items.isEmpty else { return [:] }
        return Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Whether the client asked for JSON: by a `.json` suffix on the path, an `Accept` header that
    /// names `application/json` before (or without) `text/html`, or by sending a JSON body.
    public var prefersJSON: Bool {
        if path.hasSuffix(".json") { return true }
        if headers["Content-Type"]?.hasPrefix("application/json") == true { return true }
        guard let accept = headers["Accept"] else { return false }
        guard let json = accept.firstRange(of: "application/json") else { return false }
        guard let html = accept.firstRange(of: "text/html") else { return true }
        return json.lowerBound < html.lowerBound
    }
}
