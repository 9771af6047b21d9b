import Synchronization

/// A response body written while it is being sent — a download of unknown length, such as an
/// export — in chunked transfer encoding, with any content type.
///
/// It is an ``EventStream``'s buffer and connection handling without the event framing, the
/// heartbeats or the per-client stream cap, plus backpressure: ``write(_:)`` returns only once
/// at most ``maxBufferedBytes`` are waiting for the client, so a slow reader holds back the
/// producer instead of filling the server's memory. The connection keeps the server's idle timeout,
/// so a client that stops reading is dropped in the end; ``write(_:)`` then returns false.
///
///     let body = BodyStream()
///     Task { for chunk in chunks { guard await body.write(chunk) else { return } }; body.finish() }
///     return Response(body: body, contentType: "text/csv; charset=utf-8")
///
/// A client sees the end of a complete body as the chunked encoding's last chunk; a producer that
/// fails halfway calls ``abort()``, which closes the connection without it, so the client sees a
/// truncated transfer rather than a short body that looks whole.
public final class BodyStream: Sendable {
    /// The default of ``maxBufferedBytes``: 256 KiB.
    public static let defaultMaxBufferedBytes = 256 * 1024

    /// How many bytes may wait for the client before ``write(_:)`` waits.
    public let maxBufferedBytes: Int

    let buffer = EventStream()
    private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let aborted = Atomic<Bool>(false)

    /// A stream that holds at most `maxBufferedBytes` (plus one write) for a slow client.
    public init(maxBufferedBytes: Int = BodyStream.defaultMaxBufferedBytes) {
        self.maxBufferedBytes = max(1, maxBufferedBytes)
        buffer.onTermination { [weak self] in self?.wakeProducer() }
    }

    /// Whether the client went away or the body ended; writes are then refused.
    public var isClosed: Bool { buffer.isClosed }

    /// Bytes written but not yet taken by the connection.
    public var bufferedByteCount: Int { buffer.bufferedByteCount }

    /// Queues `bytes`, then waits while more than ``maxBufferedBytes`` are buffered. Returns false
    /// (at once, or when the wait ends) once the client has gone away: stop producing then.
    /// Call it from one producer at a time.
    public func write(_ bytes: [UInt8]) async -> Bool {
        guard buffer.write(bytes) else { return false }
        await withCheckedContinuation { continuation in
            let proceed = waiting.withLock { waiting in
                // Checked under the lock the reader takes to wake us, so no wake-up is missed.
                if buffer.bufferedByteCount <= maxBufferedBytes || buffer.isClosed { return true }
                waiting = continuation
                return false
            }
            if proceed { continuation.resume() }
        }
        return !buffer.isClosed
    }

    /// Ends the body once what is buffered has been sent.
    public func finish() { buffer.finish() }

    /// Ends the body at once without its last chunk: the client sees a truncated transfer.
    public func abort() {
        aborted.store(true, ordering: .relaxed)
        // Also wakes a suspended connection, whose next read reports the failure.
        buffer.finish()
    }

    // MARK: - Connection side

    /// Copies buffered bytes for the connection (see ``EventStream``'s reader); -1 ends the
    /// response, cleanly after ``finish()`` and as an error after ``abort()``.
    func read(into target: UnsafeMutableRawBufferPointer) -> Int {
        if aborted.load(ordering: .relaxed) { return -2 }
        guard let count = buffer.read(into: target) else { return -1 }
        if count > 0 { wakeProducer() }
        return count
    }

    func detach() {
        buffer.detach()
        wakeProducer()
    }

    private func wakeProducer() {
        let continuation = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard buffer.bufferedByteCount <= maxBufferedBytes || buffer.isClosed else { return nil }
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume()
    }
}
