import CMicroHTTPD
import Synchronization

/// An open Server-Sent Events response that any thread may write to.
///
/// Return it from a handler as `Response(stream:)`; keep it to send events later. Writes are
/// buffered per stream and flushed as the client reads; the connection sleeps (suspended, costing no
/// CPU) while there is nothing to send.
///
///     let stream = EventStream()
///     stream.onTermination { hub.remove(stream) }
///     stream.send(event: "patch", id: "42", data: json)
///     return Response(stream: stream)
public final class EventStream: Sendable {
    struct State {
        // Chunks are kept as whole arrays so one encoded event can be shared by every subscriber
        // without a copy per stream.
        var chunks: [[UInt8]] = []
        var firstChunk = 0
        var offsetInFirstChunk = 0
        var bufferedByteCount = 0
        /// Whether the connection sleeps, may take more bytes or has ended.
        var life = EventStreamLife()
        var terminationHandlers: [@Sendable () -> Void] = []
        /// The server's registry of open streams, which this stream leaves when it ends.
        var registry: StreamRegistry?
        var client: PeerAddress?
    }

    private let state = Mutex(State())

    /// Creates a stream with nothing buffered.
    public init() {}

    /// Whether the client went away or the stream ended; writes are then ignored.
    public var isClosed: Bool { state.withLock { $0.life.isClosed } }

    /// Bytes written but not yet taken by the connection: the measure of a slow reader.
    public var bufferedByteCount: Int { state.withLock { $0.bufferedByteCount } }

    /// Registers `handler` to run once when the client goes away or the stream ends; at once when it
    /// already has.
    public func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let closed = state.withLock { state in
            if state.life.isDetached { return true }
            state.terminationHandlers.append(handler)
            return false
        }
        if closed { handler() }
    }

    /// Sends one event; `data` may span lines. Returns false when the stream is closed.
    @discardableResult
    public func send(event: String? = nil, id: String? = nil, data: String) -> Bool {
        write(EventStream.encode(event: event, id: id, data: data))
    }

    /// Sends a comment line, which clients ignore; used for heartbeats.
    @discardableResult
    public func comment(_ text: String = "") -> Bool {
        write(Array((": " + text + "\n\n").utf8))
    }

    /// Sends bytes already in SSE form (see ``encode(event:id:data:)``), so one encoding can go to
    /// many streams. Returns false when the stream is closed.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return !isClosed }
        return state.withLock { state in
            let (accepted, sleeping) = state.life.write()
            guard accepted else { return false }
            state.chunks.append(bytes)
            state.bufferedByteCount += bytes.count
            sleeping?.resume()
            return true
        }
    }

    /// Sends several chunks as one write: no other writer's bytes come between them. A stream that
    /// carries several sources' events prefixes each shared event with a line of its own this way,
    /// without copying the event. Returns false when the stream is closed.
    @discardableResult
    public func write(contentsOf chunks: [[UInt8]]) -> Bool {
        state.withLock { state in
            let (accepted, sleeping) = state.life.write()
            guard accepted else { return false }
            for chunk in chunks where !chunk.isEmpty {
                state.chunks.append(chunk)
                state.bufferedByteCount += chunk.count
            }
            sleeping?.resume()
            return true
        }
    }

    /// Ends the stream once what is buffered has been sent.
    public func finish() {
        state.withLock { $0.life.finish()?.resume() }
    }

    /// Encodes one event in the SSE wire format, one `data:` line per line of `data`. Lines end
    /// at `\r\n`, `\r` or `\n`, as SSE reads them, so no line end reaches the wire inside a
    /// `data:` line (a raw `\r` there would end the line early for the client).
    public static func encode(event: String? = nil, id: String? = nil, data: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + 32)
        if let id {
            bytes.append(contentsOf: "id: ".utf8)
            bytes.append(contentsOf: id.utf8)
            bytes.append(0x0a)
        }
        if let event {
            bytes.append(contentsOf: "event: ".utf8)
            bytes.append(contentsOf: event.utf8)
            bytes.append(0x0a)
        }
        var data = data
        data.withUTF8 { input in
            func appendLine(_ line: Slice<UnsafeBufferPointer<UInt8>>) {
                bytes.append(contentsOf: "data: ".utf8)
                bytes.append(contentsOf: line)
                bytes.append(0x0a)
            }
            var lineStart = 0
            var index = 0
            while index < input.count {
                let byte = input[index]
                guard byte == 0x0a || byte == 0x0d else {
                    index += 1
                    continue
                }
                appendLine(input[lineStart..<index])
                // "\r\n" is one line end, not an empty line between two.
                index += byte == 0x0d && index + 1 < input.count && input[index + 1] == 0x0a ? 2 : 1
                lineStart = index
            }
            appendLine(input[lineStart..<input.count])
        }
        bytes.append(0x0a)
        return bytes
    }

    // MARK: - Connection side (called by the server's libmicrohttpd callbacks)

    /// Records the registry the stream is in, so that ``detach()`` removes it; false when the stream
    /// has already been detached (the caller then removes it).
    func register(in registry: StreamRegistry, client: PeerAddress?) -> Bool {
        state.withLock { state in
            guard !state.life.isDetached else { return false }
            state.registry = registry
            state.client = client
            return true
        }
    }

    func attach(to connection: ConnectionHandle, descriptor: Int32 = -1) {
        state.withLock { $0.life.attach(to: connection, descriptor: descriptor) }
    }

    /// The socket of the stream's connection while it sleeps, or nil when it is awake or gone.
    /// The descriptor is checked again by ``peerWentAway()`` under the lock, so a connection that
    /// woke (and may have closed) meanwhile is never touched.
    var sleepingDescriptor: Int32? {
        state.withLock { $0.life.sleepingDescriptor }
    }

    /// The client closed the connection while the stream slept: wakes the connection so that
    /// libmicrohttpd ends it now, which frees the stream's slot, rather than at the next
    /// heartbeat. Does nothing when the connection woke meanwhile (it then finds the close itself).
    func peerWentAway() {
        state.withLock { $0.life.peerWentAway()?.resume() }
    }

    /// What ``read(into:)`` returns for a stream whose client went away: libmicrohttpd's
    /// `MHD_CONTENT_READER_END_WITH_ERROR`, which closes the connection without a last chunk.
    static let abortedRead = -2

    /// Copies up to `capacity` buffered bytes into `buffer`. With nothing to send it suspends the
    /// connection and returns 0 — returning 0 without suspending would make libmicrohttpd poll in a
    /// busy loop — or returns nil once the stream has finished, ``abortedRead`` once its client went away.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        state.withLock { state in
            switch state.life.read(hasBytes: state.bufferedByteCount > 0) {
            case .abort: return Self.abortedRead
            case .end: return nil
            case .wait: return 0
            case .sleep(let connection):
                connection.suspend()
                return 0
            case .copy: break
            }
            var copied = 0
            while copied < buffer.count, state.firstChunk < state.chunks.count {
                let chunk = state.chunks[state.firstChunk]
                let count = min(buffer.count - copied, chunk.count - state.offsetInFirstChunk)
                chunk.withUnsafeBytes { source in
                    let start = source.baseAddress! + state.offsetInFirstChunk
                    (buffer.baseAddress! + copied).copyMemory(from: start, byteCount: count)
                }
                copied += count
                state.offsetInFirstChunk += count
                if state.offsetInFirstChunk == chunk.count {
                    state.firstChunk += 1
                    state.offsetInFirstChunk = 0
                }
            }
            state.bufferedByteCount -= copied
            if state.firstChunk == state.chunks.count {
                // Not keeping capacity: a subscriber is idle nearly all the time, and its empty
                // queue then costs no allocation (one malloc per event is cheap next to the send).
                state.chunks.removeAll()
                state.firstChunk = 0
            } else if state.firstChunk > 64 {
                state.chunks.removeFirst(state.firstChunk)
                state.firstChunk = 0
            }
            return copied
        }
    }

    /// The connection is gone: drop the buffer and tell the owners.
    func detach() {
        let (handlers, registry, client) = state.withLock { state in
            state.life.detach()
            state.chunks = []
            state.bufferedByteCount = 0
            defer {
                state.terminationHandlers = []
                state.registry = nil
            }
            return (state.terminationHandlers, state.registry, state.client)
        }
        registry?.remove(self, client: client)
        for handler in handlers { handler() }
    }
}
