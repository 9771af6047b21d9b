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
    public var queryItems: [(name: String, value: String)]
    /// The request's header fields.
    public var headers: HTTPHeaders
    /// The cookies the client sent, by name.
    public var cookies: [String: String]
    /// The request body; empty when there was none.
    public var body: [UInt8]
    /// The peer's address, e.g. `127.0.0.1` or `::1`, when known.
    public var remoteAddress: String? {
        get {
            switch remote {
            case .text(let text): text
            case .socket(let address): address.text
            }
        }
        set { remote = .text(newValue) }
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
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.remote = .text(remoteAddress)
    }

    /// The server's initializer: the peer's address stays raw until asked for.
    init(
        method: HTTPMethod, path: String, pathSegments: [String], queryItems: [(name: String, value: String)],
        headers: HTTPHeaders, cookies: [String: String], body: [UInt8], peer: PeerAddress?
    ) {
        self.method = method
        self.path = path
        self.pathSegments = pathSegments
        self.parameters = [:]
        self.queryItems = queryItems
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.remote = peer.map { .socket($0) } ?? .text(nil)
    }

    /// The query items by name; where a name repeats, the last value wins.
    public var query: [String: String] {
        Dictionary(queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
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
