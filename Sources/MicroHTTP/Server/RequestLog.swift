import Dispatch
import Logging
import Synchronization

/// The access log: one line per request (method, path, status, duration, peer, and the response's
/// ``Response/logFields``, such as the actor a write acted for), at `info`.
///
/// An event thread only appends a small record to a buffer (a lock held for an append); a writer on
/// a dispatch queue of its own formats the records and writes them in large pieces: every
/// ``ServerConfiguration/accessLogFlushInterval``, as soon as the buffer is half full, and at
/// shutdown. The buffer is bounded by ``ServerConfiguration/accessLogBufferSize`` bytes; a record
/// that does not fit is dropped and counted, never waited for, and the next flush writes a
/// `warning` line saying how many were dropped.
final class RequestLog: Sendable {
    /// One request, as recorded on the event thread; formatted later by the writer.
    struct Entry: Sendable {
        var method: HTTPMethod
        var path: String
        var status: Int
        var startedAt: ContinuousClock.Instant
        var finishedAt: ContinuousClock.Instant
        var peer: Request.Remote?
        var fields: [LogField] = []

        /// What the entry is counted as against the buffer's bound: its strings plus what a
        /// record and its formatted line take besides (about 128 bytes, and 32 a field).
        var cost: Int { 128 + path.utf8.count + fields.reduce(0) { $0 + 32 + $1.name.utf8.count + $1.value.utf8.count } }
    }

    private struct Pending {
        var entries: [Entry] = []
        var bytes = 0
        var dropped = 0
        /// A flush is queued because the buffer passed half full; not queued again until it ran.
        var flushQueued = false
    }

    private struct Writer {
        var line: LogLine
        /// The entries array handed back after each flush, so its memory is reused.
        var spare: [Entry] = []
        /// The last peer formatted: consecutive requests mostly come from the same few clients
        /// (keep-alive), and formatting an address is a system call and an allocation.
        var lastPeer: PeerAddress?
        var lastPeerText: String?
    }

    let logger: Logger
    private let format: LogFormat
    private let byteLimit: Int
    private let flushInterval: Duration
    private let output: LogOutput
    private let pending = Mutex(Pending())
    private let writer: Mutex<Writer>
    private let queue = DispatchQueue(label: "microhttp.access-log")
    private let isRunning = Atomic<Bool>(false)
    private let droppedTotal = Atomic<Int>(0)
    private let writtenTotal = Atomic<Int>(0)

    init(logger: Logger, format: LogFormat = .text, byteLimit: Int = 1 << 20, flushInterval: Duration = .seconds(1), output: LogOutput = .standardError) {
        self.logger = logger
        self.format = format
        self.byteLimit = max(0, byteLimit)
        self.flushInterval = max(.milliseconds(1), flushInterval)
        self.output = output
        writer = Mutex(Writer(line: LogLine(format: format)))
    }

    /// Whether request lines are logged at all (the logger's level is `info` or lower).
    var isEnabled: Bool { logger.logLevel <= .info }

    /// Lines dropped because the buffer was full, since the server started.
    var droppedCount: Int { droppedTotal.load(ordering: .relaxed) }

    /// Lines written so far.
    var writtenCount: Int { writtenTotal.load(ordering: .relaxed) }

    /// Records one request; called on an event thread, so it only appends to the buffer.
    func record(method: HTTPMethod, path: String, status: Int, startedAt: ContinuousClock.Instant?, request: Request?, fields: [LogField] = []) {
        // Checked first so that a server run at `warning` pays nothing per request.
        guard isEnabled, let startedAt else { return }
        let entry = Entry(
            method: method, path: path, status: status, startedAt: startedAt, finishedAt: .now,
            peer: request?.remote, fields: fields
        )
        let cost = entry.cost
        let queueFlush = pending.withLock { pending -> Bool in
            guard pending.bytes + cost <= byteLimit else {
                pending.dropped += 1
                return false
            }
            pending.entries.append(entry)
            pending.bytes += cost
            guard !pending.flushQueued, pending.bytes * 2 >= byteLimit else { return false }
            pending.flushQueued = true
            return true
        }
        if queueFlush {
            queue.async { self.flush() }
        }
    }

    /// Starts the writer's clock: a flush at least every flush interval until ``stop()``.
    func start() {
        guard !isRunning.exchange(true, ordering: .acquiringAndReleasing) else { return }
        scheduleFlush()
    }

    private func scheduleFlush() {
        let interval = flushInterval.components
        let nanoseconds = Int(interval.seconds) * 1_000_000_000 + Int(interval.attoseconds / 1_000_000_000)
        // Weak: a server dropped without shutdown must not keep its log's clock running forever.
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            guard let self, self.isRunning.load(ordering: .acquiring) else { return }
            self.flush()
            self.scheduleFlush()
        }
    }

    /// Stops the clock and writes every line recorded so far; returns once they are written.
    func stop() async {
        isRunning.store(false, ordering: .releasing)
        await flushNow()
    }

    /// Writes every line recorded so far; returns once they are written.
    func flushNow() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.flush()
                continuation.resume()
            }
        }
    }

    /// Formats and writes what the buffer holds; runs on the writer's queue only.
    private func flush() {
        writer.withLock { writer in
            var entries = writer.spare
            let dropped = pending.withLock { pending -> Int in
                swap(&entries, &pending.entries)
                pending.bytes = 0
                pending.flushQueued = false
                defer { pending.dropped = 0 }
                return pending.dropped
            }
            guard !entries.isEmpty || dropped > 0 else {
                writer.spare = entries
                return
            }
            // One clock pair per flush turns each entry's monotonic end into wall-clock time.
            let wallNow = LogTime.now
            let monotonicNow = ContinuousClock.now
            writer.line.removeAll()
            let label = logger.label
            for entry in entries {
                let peer: String?
                switch entry.peer {
                case .socket(let address)?:
                    if address != writer.lastPeer {
                        writer.lastPeer = address
                        writer.lastPeerText = address.text
                    }
                    peer = writer.lastPeerText
                case .text(let text)?: peer = text
                case nil: peer = nil
                }
                Self.append(entry, peer: peer, time: wallNow.earlier(by: monotonicNow - entry.finishedAt), label: label, to: &writer.line)
            }
            if dropped > 0 {
                droppedTotal.add(dropped, ordering: .relaxed)
                writer.line.begin(time: wallNow, level: .warning, label: logger.label)
                writer.line.message(
                    "access log: dropped \(dropped) lines because its buffer of \(byteLimit) bytes was full; "
                        + "raise the access log buffer size (--access-log-buffer-size) or log at warning"
                )
                writer.line.field("dropped", dropped)
                writer.line.end()
            }
            output.write(writer.line.bytes)
            writtenTotal.add(entries.count, ordering: .relaxed)
            entries.removeAll(keepingCapacity: true)
            writer.spare = entries
            // A burst may have left a large buffer behind; it is not kept past a few pages.
            if writer.line.bytes.capacity > 1 << 20 { writer.line = LogLine(format: format) }
        }
    }

    /// Appends `entry`'s line: `GET /path 200 0.42ms peer=… actor=…`, or the same fields in JSON.
    static func append(_ entry: Entry, peer: String?, time: LogTime, label: String, to line: inout LogLine) {
        let elapsed = entry.finishedAt - entry.startedAt
        let microseconds = Int(elapsed.components.seconds) * 1_000_000 + Int(elapsed.components.attoseconds / 1_000_000_000_000)
        line.begin(time: time, level: .info, label: label)
        line.beginMessage()
        line.appendToMessage(entry.method.rawValue)
        line.appendToMessage(ascii: UInt8(ascii: " "))
        line.appendToMessage(entry.path)
        line.appendToMessage(ascii: UInt8(ascii: " "))
        line.appendToMessage(integer: entry.status)
        line.appendToMessage(ascii: UInt8(ascii: " "))
        line.appendToMessage(microseconds: microseconds)
        line.appendToMessage(ascii: UInt8(ascii: "m"))
        line.appendToMessage(ascii: UInt8(ascii: "s"))
        line.endMessage()
        if line.format == .json {
            line.field("method", entry.method.rawValue)
            line.field("path", entry.path)
            line.field("status", entry.status)
            line.field("duration_ms", microseconds: microseconds)
        }
        if let peer { line.field("peer", peer) }
        for field in entry.fields { line.field(field.name, field.value) }
        line.end()
    }
}
