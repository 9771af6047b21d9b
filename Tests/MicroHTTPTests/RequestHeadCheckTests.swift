import HTTPTestSupport
import MicroHTTP
import Testing

/// Heads a proxy in front and the server could read differently are refused with 400 and the
/// connection closed, before any body is read: missing or repeated `Host`, a field name with space
/// before its colon, two differing `Content-Length`s, `Content-Length` with `Transfer-Encoding`.
@Suite("Ambiguous request heads")
struct RequestHeadCheckTests {
    /// Sends `head` (and whatever follows it) on a new connection; returns all the server sent
    /// before it closed the connection.
    private static func answer(to raw: String, in server: Server) async throws -> String {
        let connection = try await TestConnection(port: server.port)
        try await connection.send(Array(raw.utf8))
        return String(decoding: try await connection.readUntilClosed(timeout: .seconds(10)), as: UTF8.self)
    }

    /// The status codes of the responses in `text`, in order.
    private static func statuses(in text: String) -> [String] {
        text.matches(of: /HTTP\/1\.[01] (\d{3})/).map { String($0.1) }
    }

    /// Expects `head` to get one 400 and the connection closed, with no route reached (`/hello`
    /// answers "hello", also when smuggled after the head).
    private static func expectRefused(_ head: String) async throws {
        try await withServer(testRouter()) { server in
            let text = try await Self.answer(to: head, in: server)
            #expect(Self.statuses(in: text) == ["400"], "\(text)")
            #expect(!text.contains("hello"))
        }
    }

    @Test("Host missing, repeated, or named with a space before its colon: 400 and closed", arguments: [
        "GET /hello HTTP/1.1\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost : evil.example\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Host : evil.example\r\n\r\n",
        "GET /hello HTTP/1.0\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n",
    ])
    func ambiguousHostsAreRefused(head: String) async throws {
        try await Self.expectRefused(head)
    }

    @Test("Content-Length twice with different values, or with Transfer-Encoding: 400, and the rest is never read as a request", arguments: [
        "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nContent-Length: 45\r\n\r\nGET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    ])
    func ambiguousFramingIsRefused(head: String) async throws {
        try await Self.expectRefused(head)
    }

    @Test("Issue 29's framing attacks: obs-fold, a coding other than chunked, NUL in a field or the target, bare CR or LF: 400, and nothing after the head runs", arguments: [
        // A Transfer-Encoding folded onto a continuation line was dropped: 204, and the pipelined request ran.
        "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 17\r\nTransfer-Encoding: gzip,\r\n chunked\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: one\r\n\ttwo\r\n\r\n",
        // Without a length, `identity` made the server wait for a body that never ends.
        "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: identity\r\n\r\nabc",
        "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        // A NUL cut the value (or the path) short, and the rest was accepted.
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\u{0}.evil.example\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\u{0}b\r\n\r\n",
        "GET /hello\u{0}/../secret HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /hello?q=a\u{0}b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /hello?q=a\rb HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        // Bare LF and bare CR as line ends.
        "GET /hello HTTP/1.1\nHost: 127.0.0.1\n\n",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\nX-Note: a\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\rX-Other: b\r\n\r\n",
    ])
    func malformedLinesAreRefused(head: String) async throws {
        try await Self.expectRefused(head)
    }

    @Test("Well-formed heads pass the line check: empty values, tabs around values, many fields, a query string, chunked alone")
    func wellFormedLinesPass() async throws {
        try await withServer(testRouter()) { server in
            let connection = try await TestConnection(port: server.port)
            var fields = ""
            for index in 0..<40 { fields += "X-Field-\(index):\t value \(index)\t\r\n" }
            try await connection.send(Array("GET /hello?a=1&b=&c HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Empty:\r\n\(fields)Cookie: a=b; c=d\r\n\r\n".utf8))
            let first = try await connection.readResponse()
            #expect(first.status == 200 && first.text == "hello")
            try await connection.send(Array("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n".utf8))
            let echoed = try await connection.readResponse()
            #expect(echoed.status == 200 && echoed.text == "abc")
        }
    }

    @Test("Unambiguous heads still pass: HTTP/1.0 without Host, one Content-Length repeated with the same value")
    func unambiguousHeadsPass() async throws {
        try await withServer(testRouter()) { server in
            let old = try await Self.answer(to: "GET /hello HTTP/1.0\r\n\r\n", in: server)
            #expect(Self.statuses(in: old) == ["200"] && old.hasSuffix("hello"), "\(old)")
            let connection = try await TestConnection(port: server.port)
            try await connection.send(Array("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc".utf8))
            let echoed = try await connection.readResponse()
            #expect(echoed.status == 200 && echoed.text == "abc")
            #expect(try await connection.request("GET", "/hello").text == "hello")
        }
    }
}
