import MicroHTTP
import PropertyBased
import HostileTextSupport

/// Fixtures of the cross-site tests: requests with given headers, and hostile `Host` and `Origin` values.
enum CrossSiteFixtures {
    /// A request to `path` with `headers`.
    static func request(_ method: HTTPMethod = .post, _ path: String = "/pages/todo/rows/todo-1/select", headers: HTTPHeaders, body: String = "") -> Request {
        Request(method: method, path: path, pathSegments: path.split(separator: "/").map(String.init), headers: headers, body: Array(body.utf8))
    }

    /// Pieces hostile header values are made of: near-misses of the allowed names, separators a
    /// lax parser would split on, Unicode that lowercases to ASCII (K, the Kelvin sign), and bytes
    /// no host may hold.
    static let hostPieces: [String] = [
        "tables.example", "tables.example.", "evil.example", "tables", ".example", "example", "localhost", "127.0.0.1",
        "[::1]", "::1", "[", "]", ":", ":8080", ":99999", ":-1", ":0x50", "@", "/", "\\", "?", "#", "%2e", "%00", "\u{0}",
        " ", "\t", "\r\n", ",", ";", ".", "..", "*", "TABLES.EXAMPLE", "tables.exampl\u{212A}", "\u{212A}", "\u{130}",
        "http://", "https://", "null", "xn--", "-", "_", "0", "65535",
    ]

    /// Arbitrary header values, mostly from ``hostPieces`` and now and then any hostile text.
    static let headerValue = zip(Gen.int(in: 0...99).array(of: 0...6), HostileText.text).map { codes, text in
        codes.map { $0 < 90 ? hostPieces[$0 % hostPieces.count] : text }.joined()
    }
}
