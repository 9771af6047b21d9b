import HTTPTestSupport
import MicroHTTP
import Testing

/// The default per-connection memory limit (libmicrohttpd's memory pool) must hold the request heads
/// real browsers send, and a head too large for it must get a clear 4xx, not a crash or a hang.
@Suite("Request head size under the default connection memory limit")
struct RequestHeadLimitTests {
    /// About 6 KB of header fields: a long cookie and user agent plus many ordinary fields.
    static let largeHeaders: [(String, String)] = {
        var headers: [(String, String)] = [
            ("User-Agent", String(repeating: "Mozilla/5.0 (X11; Linux x86_64) ", count: 8)),
            ("Cookie", (0..<40).map { "cookie\($0)=\(String(repeating: "v", count: 60))" }.joined(separator: "; ")),
        ]
        for index in 0..<30 {
            headers.append(("X-Extra-\(index)", String(repeating: "x", count: 100)))
        }
        return headers
    }()

    /// About 3 KB: what a browser sends with a 1 KB `Cookie` field (ten cookies), a long user
    /// agent and the usual fields.
    static let browserHeaders: [(String, String)] = {
        var headers: [(String, String)] = [
            ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"),
            ("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"),
            ("Accept-Language", "en-GB,en;q=0.9,de;q=0.8,fr;q=0.7"),
            ("Accept-Encoding", "gzip, deflate, br, zstd"),
            ("Referer", "https://tables.example.com/pages/products?sort=name&group=category&_next=120"),
            ("Cookie", (0..<10).map { "cookie\($0)=\(String(repeating: "v", count: 90))" }.joined(separator: "; ")),
        ]
        for index in 0..<20 {
            headers.append(("Sec-Extra-\(index)", String(repeating: "s", count: 60)))
        }
        return headers
    }()

    static func headSize(_ headers: [(String, String)]) -> Int {
        headers.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 }
    }

    /// Subscribers are what the default is sized for: 7.5 KiB, about 9.5 KiB of memory per idle one.
    @Test func defaultLimitIs7AndAHalfKiB() {
        #expect(ServerConfiguration().connectionMemoryLimit == 7_680)
        #expect(ServerConfiguration.defaultConnectionMemoryLimit == 7_680)
        #expect(ServerConfiguration.minimumConnectionMemoryLimit == 6_144)
    }

    @Test func browserHeadIsAnsweredUnderTheDefault() async throws {
        #expect((2_500...3_500).contains(Self.headSize(Self.browserHeaders)))
        try await Self.expectAnsweredTwice(headers: Self.browserHeaders)
    }

    /// Sends two requests with `headers` on one kept-alive connection under `memoryLimit` (the
    /// default when nil): both are answered, the second reusing the pool the first used.
    private static func expectAnsweredTwice(headers: [(String, String)], memoryLimit: Int? = nil) async throws {
        try await withServer(testRouter(), configure: { configuration in
            if let memoryLimit { configuration.connectionMemoryLimit = memoryLimit }
        }) { server in
            let connection = try await TestConnection(port: server.port)
            let first = try await connection.request("GET", "/hello", headers: headers)
            #expect(first.status == 200)
            #expect(first.text == "hello")
            let second = try await connection.request("GET", "/slow", headers: headers)
            #expect(second.status == 200)
            #expect(second.text == "waited")
        }
    }

    @Test func browserHeadGetsAnEventStreamUnderTheDefault() async throws {
        // Larger than the pool: an event is sent in pieces through the connection's buffer.
        try await Self.expectEventStream(headers: Self.browserHeaders, eventSize: 20_000)
    }

    /// Opens an event stream with `headers` under `memoryLimit` (the default when nil) and checks
    /// that an event of `eventSize` bytes arrives whole.
    private static func expectEventStream(headers: [(String, String)], memoryLimit: Int? = nil, eventSize: Int) async throws {
        let box = StreamBox()
        try await withServer(testRouter(streams: box), configure: { configuration in
            if let memoryLimit { configuration.connectionMemoryLimit = memoryLimit }
        }) { server in
            let connection = try await TestConnection(port: server.port)
            let head = try await connection.openStream("/events", headers: headers)
            #expect(head.status == 200)
            #expect(await eventually { box.all.count == 1 })
            let stream = try #require(box.all.first)
            let data = String(repeating: "d", count: eventSize)
            stream.send(event: "patch", id: "1", data: data)
            let text = try await connection.readStream(until: { $0.contains("id: 1") && $0.contains(data + "\n\n") })
            #expect(text.contains("event: patch\ndata: " + data + "\n\n"))
        }
    }

    @Test func largerHeadNeedsALargerLimit() async throws {
        #expect((6_000...7_000).contains(Self.headSize(Self.largeHeaders)))
        try await withServer(testRouter()) { server in
            let connection = try await TestConnection(port: server.port)
            let refused = try await connection.request("GET", "/hello", headers: Self.largeHeaders)
            #expect(refused.status == 431)
        }
    }

    @Test func largeButReasonableHeadIsAnsweredWith16KiB() async throws {
        try await Self.expectAnsweredTwice(headers: Self.largeHeaders, memoryLimit: 16 * 1024)
    }

    @Test func largeHeadStillGetsAnEventStreamWith16KiB() async throws {
        try await Self.expectEventStream(headers: Self.largeHeaders, memoryLimit: 16 * 1024, eventSize: 4_000)
    }

    @Test func oversizedHeadGetsA4xxAndTheServerStaysHealthy() async throws {
        try await withServer(testRouter()) { server in
            let connection = try await TestConnection(port: server.port)
            let huge = try await connection.request("GET", "/hello", headers: [("X-Huge", String(repeating: "h", count: 24_000))])
            #expect(huge.status == 431)

            // A head that libmicrohttpd can still read, but that would leave too little of the pool
            // for the response head, is refused by the server rather than left unanswered.
            let nearLimit = try await TestConnection(port: server.port)
            let refused = try await nearLimit.request("GET", "/hello", headers: [("X-Big", String(repeating: "b", count: 6_800))])
            #expect(refused.status == 431)
            #expect(refused.text.contains("too large"))

            let longURL = try await TestConnection(port: server.port)
            let tooLong = try await longURL.request("GET", "/hello?q=" + String(repeating: "u", count: 24_000))
            #expect((400..<500).contains(tooLong.status))

            let healthy = try await TestConnection(port: server.port)
            #expect(try await healthy.request("GET", "/hello").text == "hello")
        }
    }
}
