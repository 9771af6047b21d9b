import MicroHTTP
import TableKit

/// The other origins whose scripts may call the pages (`--cors ORIGIN`): their preflights are
/// answered and their responses carry `Access-Control-Allow-Origin` with credentials.
///
/// Only listed origins are ever named, never `*`: a response that allows credentials must name
/// the one origin it trusts.
///
///     let cors = CORSPolicy(["https://app.example"])
///     cors.allows(origin: "https://app.example")   // true
public struct CORSPolicy: Sendable {
    /// The listed origins, normalized (`https://app.example`, `http://localhost:3000`).
    private let origins: Set<String>

    /// The header fields a cross-origin script may send to the pages.
    static let allowedHeaders = "Accept, Content-Type, Authorization, X-CSRF-Token, Last-Event-ID"
    /// How long a browser may reuse a preflight's answer, in seconds.
    static let maxAge = "600"

    /// A policy for `origins`, each `scheme://host[:port]`; malformed ones are left out (see
    /// ``normalized(_:)``, which the command line uses to refuse them).
    init(_ origins: [String]) {
        self.origins = Set(origins.compactMap(Self.normalized))
    }

    /// Whether `origin` is an origin `--cors` can list: `http` or `https`, a host and a port, nothing else.
    public static func isValidOrigin(_ origin: String) -> Bool {
        normalized(origin) != nil
    }

    /// Whether any origin is listed.
    var isEmpty: Bool { origins.isEmpty }

    /// `origin` as compared: lowercased, without a default port; nil when it is no http(s) origin.
    static func normalized(_ origin: String) -> String? {
        guard let authority = Authority(origin: origin) else { return nil }
        let scheme = origin.lowercased().hasPrefix("https://") ? "https" : "http"
        let defaultPort = scheme == "https" ? 443 : 80
        let host = authority.port == defaultPort ? authority.host : authority.host + ":" + String(authority.port)
        return scheme + "://" + host
    }

    /// Whether `origin`, an `Origin` header, is listed.
    func allows(origin: String) -> Bool {
        guard !origins.isEmpty, let origin = Self.normalized(origin) else { return false }
        return origins.contains(origin)
    }

    /// The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) from a
    /// listed origin to a page route; nil for anything else, which the router answers as usual
    /// (without CORS headers, so the browser refuses the real request).
    func preflight(_ request: Request) -> Response? {
        guard request.method == .options, request.headers["Access-Control-Request-Method"] != nil,
              request.path.hasPrefix("\(PageContract.pagesPath)"),
              let origin = request.headers["Origin"], allows(origin: origin) else { return nil }
        var response = Response(status: 204)
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Allow-Credentials"] = "true"
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, DELETE"
        response.headers["Access-Control-Allow-Headers"] = Self.allowedHeaders
        response.headers["Access-Control-Max-Age"] = Self.maxAge
        response.headers["Vary"] = "Origin"
        return response
    }

    /// Adds the CORS headers to `response` when `request` came from a listed origin, and
    /// `Vary: Origin` whenever origins are listed, so caches keep the answers apart.
    func decorate(_ response: inout Response, for request: Request) {
        guard !origins.isEmpty else { return }
        if let vary = response.headers["Vary"] {
            if !vary.lowercased().contains("origin") { response.headers["Vary"] = vary + ", Origin" }
        } else {
            response.headers["Vary"] = "Origin"
        }
        guard response.headers["Access-Control-Allow-Origin"] == nil,
              let origin = request.headers["Origin"], allows(origin: origin) else { return }
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Allow-Credentials"] = "true"
    }
}
