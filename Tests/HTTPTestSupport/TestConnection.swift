import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 client connection for tests: one TCP socket, requests written by hand, responses
/// parsed strictly, so tests can see keep-alive, chunking and streams exactly as sent.
///
/// Blocking socket calls run on the connection's own serial Dispatch queue, never on Swift's
/// cooperative pool (which the server under test needs for its async handlers), and not on the
/// global queue either: on Linux that one runs about one thread per core and does not notice blocked
/// threads, so a few waiting reads would starve the rest.
public final class TestConnection: Sendable {
    /// A failure of the test client itself.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String

        /// Creates a failure with a description.
        public init(description: String) { self.description = description }
    }

    struct State {
        var descriptor: Int32
        var buffer: [UInt8] = []
        var streamBody: [UInt8] = []
        var streamEnded = false
        // For each marker counted so far: how many times `streamBody` holds it before `to`, so
        // that counting after each chunk reads only the new bytes.
        var tallies: [[UInt8]: (count: Int, to: Int)] = [:]
    }

    private let state: Mutex<State>
    private let queue: DispatchQueue

    /// Connects to `host:port`; a small `receiveBufferSize` makes a client that reads slowly, and a
    /// `localAddress` such as `127.0.0.2` makes the connection look like another client's.
    public init(port: Int, host: String = "127.0.0.1", receiveBufferSize: Int? = nil, localAddress: String? = nil) async throws {
        let queue = DispatchQueue(label: "TestConnection")
        let descriptor = try await Self.offPool(on: queue) {
            try Self.connect(host: host, port: port, receiveBufferSize: receiveBufferSize, localAddress: localAddress)
        }
        self.queue = queue
        state = Mutex(State(descriptor: descriptor))
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { _ = Glibc.close($0.descriptor) } }
    }

    /// Closes the socket, as a client that goes away does.
    public func close() {
        state.withLock { state in
            if state.descriptor >= 0 { _ = Glibc.close(state.descriptor) }
            state.descriptor = -1
        }
    }

    /// Sends one request and reads its response. `Content-Length` is added for a body.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = [],
        timeout: Duration = .seconds(10)
    ) async throws -> TestResponse {
        try await send(Self.encode(method, target, headers: headers, body: body))
        return try await readResponse(isHead: method == "HEAD", timeout: timeout)
    }

    /// Writes raw bytes to the socket.
    public func send(_ bytes: [UInt8]) async throws {
        try await Self.offPool(on: queue) { [self] in
            try state.withLock { state in
                var sent = 0
                while sent < bytes.count {
                    let result = bytes[sent...].withUnsafeBytes { Glibc.send(state.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if result <= 0 { throw Failure(description: "send failed: errno \(errno)") }
                    sent += result
                }
            }
        }
    }

    /// Reads one complete response (Content-Length or chunked body).
    public func readResponse(isHead: Bool = false, timeout: Duration = .seconds(10)) async throws -> TestResponse {
        try await Self.offPool(on: queue) { [self] in
            try state.withLock { state in
                let deadline = ContinuousClock.now + timeout
                var response = try Self.readHead(&state, deadline: deadline)
                if isHead || response.status == 304 || response.status == 204 { return response }
                if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
                    while let chunk = try Self.readChunk(&state, deadline: deadline) { response.body += chunk }
                } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
                    try Self.fill(&state, atLeast: length, deadline: deadline)
                    response.body = Array(state.buffer.prefix(length))
                    state.buffer.removeFirst(length)
                } else {
                    while (try? Self.fill(&state, atLeast: state.buffer.count + 1, deadline: deadline)) != nil {}
                    response.body = state.buffer
                    state.buffer = []
                }
                return response
            }
        }
    }

    /// Reads the head of a streamed (chunked) response and leaves the body to ``readStream(until:timeout:)``.
    public func openStream(_ target: String, headers: [(String, String)] = [], timeout: Duration = .seconds(10)) async throws -> TestResponse {
        try await send(Self.encode("GET", target, headers: headers + [("Accept", "text/event-stream")], body: []))
        return try await Self.offPool(on: queue) { [self] in
            try state.withLock { try Self.readHead(&$0, deadline: .now + timeout) }
        }
    }

    /// Reads streamed body bytes until `satisfied` holds for all text received so far (returned), the
    /// stream ends, or the timeout passes (then it throws).
    public func readStream(until satisfied: @escaping @Sendable (String) -> Bool, timeout: Duration = .seconds(10)) async throws -> String {
        try await Self.offPool(on: queue) { [self] in
            try state.withLock { state in
                let deadline = ContinuousClock.now + timeout
                while true {
                    let text = String(decoding: state.streamBody, as: UTF8.self)
                    if satisfied(text) || state.streamEnded { return text }
                    if let chunk = try Self.readChunk(&state, deadline: deadline) {
                        state.streamBody += chunk
                    } else {
                        state.streamEnded = true
                    }
                }
            }
        }
    }

    /// Reads the event stream until it holds `marker` at least `count` times (by default, `count`
    /// events: `event: ` lines), or ends, and returns how many times it holds it. Looks only at the
    /// bytes each chunk adds, where ``readStream(until:timeout:)`` looks at the whole text again
    /// after every chunk: a stream megabytes long, read in small chunks, is read in linear time.
    ///
    ///     let patches = try await connection.readStream(untilCount: 10)
    ///     let resets = try await connection.readStream(untilCount: 1, of: "event: reset")
    public func readStream(untilCount count: Int, of marker: String = "event: ", timeout: Duration = .seconds(10)) async throws -> Int {
        let marker = Array(marker.utf8)
        precondition(!marker.isEmpty, "an empty marker")
        return try await Self.offPool(on: queue) { [self] in
            try state.withLock { state in
                let deadline = ContinuousClock.now + timeout
                while true {
                    let found = Self.tally(marker, in: &state)
                    if found >= count || state.streamEnded { return found }
                    if let chunk = try Self.readChunk(&state, deadline: deadline) {
                        state.streamBody += chunk
                    } else {
                        state.streamEnded = true
                    }
                }
            }
        }
    }

    /// How many times the stream body holds `marker` (not overlapping), counting on from where the
    /// last count of it stopped.
    private static func tally(_ marker: [UInt8], in state: inout State) -> Int {
        var (count, index) = state.tallies[marker] ?? (0, 0)
        let last = state.streamBody.count - marker.count
        state.streamBody.withUnsafeBufferPointer { body in
            while index <= last {
                if body[index] == marker[0], body[index..<index + marker.count].elementsEqual(marker) {
                    count += 1
                    index += marker.count
                } else {
                    index += 1
                }
            }
        }
        state.tallies[marker] = (count, index)
        return count
    }

    /// What a ``trickle(_:every:timeout:)`` saw.
    public struct TrickleOutcome: Sendable {
        /// How many of the bytes were sent before the server closed the connection (or time ran out).
        public var sentCount: Int
        /// Everything the server sent, e.g. a `408` answer.
        public var received: [UInt8]
        /// How long after the first byte the server closed the connection; nil if it did not.
        public var closedAfter: Duration?
        /// When the server closed the connection; nil if it did not.
        public var closedAt: ContinuousClock.Instant?
    }

    /// Sends `bytes` one at a time, one every `interval` — a client too slow for any deadline but
    /// never idle — reading whatever the server answers, until the server closes the connection or
    /// `timeout` passes. After the last byte it keeps waiting (and reading) without sending.
    public func trickle(_ bytes: [UInt8], every interval: Duration, timeout: Duration) async throws -> TrickleOutcome {
        try await Self.offPool(on: queue) { [self] in
            state.withLock { state in
                let start = ContinuousClock.now
                var outcome = TrickleOutcome(sentCount: 0, received: [], closedAfter: nil, closedAt: nil)
                var nextSend = start
                var chunk = [UInt8](repeating: 0, count: 4096)
                while ContinuousClock.now - start < timeout {
                    if outcome.sentCount < bytes.count, ContinuousClock.now >= nextSend {
                        var byte = bytes[outcome.sentCount]
                        if Glibc.send(state.descriptor, &byte, 1, Int32(MSG_NOSIGNAL)) != 1 {
                            outcome.closedAt = .now
                            outcome.closedAfter = outcome.closedAt! - start
                            return outcome
                        }
                        outcome.sentCount += 1
                        nextSend = nextSend + interval
                    }
                    var poller = pollfd(fd: state.descriptor, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 10) > 0 else { continue }
                    let count = chunk.withUnsafeMutableBytes { recv(state.descriptor, $0.baseAddress, $0.count, 0) }
                    if count <= 0 {
                        outcome.closedAt = .now
                        outcome.closedAfter = outcome.closedAt! - start
                        return outcome
                    }
                    outcome.received += chunk[..<count]
                }
                return outcome
            }
        }
    }

    /// Reads until the server closes the connection and returns what arrived; throws when it is
    /// still open after `timeout`.
    public func readUntilClosed(timeout: Duration = .seconds(10)) async throws -> [UInt8] {
        try await Self.offPool(on: queue) { [self] in
            try state.withLock { state in
                let deadline = ContinuousClock.now + timeout
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while ContinuousClock.now < deadline {
                    var poller = pollfd(fd: state.descriptor, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 20) > 0 else { continue }
                    let received = chunk.withUnsafeMutableBytes { recv(state.descriptor, $0.baseAddress, $0.count, 0) }
                    if received <= 0 {
                        // End of stream or reset: either way the server closed it.
                        defer { state.buffer = [] }
                        return state.buffer
                    }
                    state.buffer += chunk[..<received]
                }
                throw Failure(description: "the server kept the connection open for \(timeout)")
            }
        }
    }

    /// Whether the server ended the stream (the final empty chunk arrived).
    public var streamEnded: Bool { state.withLock { $0.streamEnded } }

    // MARK: - Wire

    static func encode(_ method: String, _ target: String, headers: [(String, String)], body: [UInt8]) -> [UInt8] {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        return Array(text.utf8) + body
    }

    static func readHead(_ state: inout State, deadline: ContinuousClock.Instant) throws -> TestResponse {
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = state.buffer.firstRange(of: terminator) {
                let head = String(decoding: state.buffer[..<end.lowerBound], as: UTF8.self)
                state.buffer.removeSubrange(..<end.upperBound)
                var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw Failure(description: "malformed status line: \(head)")
                }
                let headers = lines.compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
                }
                return TestResponse(status: status, headers: headers, body: [])
            }
            try fill(&state, atLeast: state.buffer.count + 1, deadline: deadline)
        }
    }

    /// One chunk's data, or nil for the final chunk.
    static func readChunk(_ state: inout State, deadline: ContinuousClock.Instant) throws -> [UInt8]? {
        while state.buffer.firstRange(of: [13, 10]) == nil {
            try fill(&state, atLeast: state.buffer.count + 1, deadline: deadline)
        }
        let lineEnd = state.buffer.firstRange(of: [13, 10])!
        let sizeText = String(decoding: state.buffer[..<lineEnd.lowerBound], as: UTF8.self)
        guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
            throw Failure(description: "malformed chunk size: \(sizeText)")
        }
        state.buffer.removeSubrange(..<lineEnd.upperBound)
        try fill(&state, atLeast: size + 2, deadline: deadline)
        let data = Array(state.buffer.prefix(size))
        state.buffer.removeFirst(size + 2)
        if size == 0 {
            return nil
        }
        return data
    }

    static func fill(_ state: inout State, atLeast count: Int, deadline: ContinuousClock.Instant) throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while state.buffer.count < count {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw Failure(description: "timed out waiting for the server") }
            var poller = pollfd(fd: state.descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            let received = chunk.withUnsafeMutableBytes { recv(state.descriptor, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { throw Failure(description: "connection closed by the server") }
            state.buffer += chunk[..<received]
        }
    }

    static func connect(host: String, port: Int, receiveBufferSize: Int?, localAddress: String? = nil) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed") }
        if let localAddress {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, localAddress, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                _ = Glibc.close(descriptor)
                throw Failure(description: "bind to \(localAddress) failed: errno \(errno)")
            }
        }
        if var size = receiveBufferSize.map(Int32.init) {
            // Before connect, so the TCP window is negotiated small.
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            _ = Glibc.close(descriptor)
            throw Failure(description: "connect to \(host):\(port) failed: errno \(errno)")
        }
        return descriptor
    }

    /// Runs blocking work on `queue` and awaits it.
    static func offPool<T: Sendable>(on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
