import MicroHTTP
import Synchronization
import TableKit

/// The subscribers of one page variant and its recent patches: a patch is encoded once and the same
/// bytes are written to every subscriber.
///
/// Subscribing (with its replay) and publishing take the same lock, so a patch is delivered to a new
/// subscriber exactly once: either in its replay or live, never both, never neither.
///
/// A subscriber is a stream of this variant alone, or one page of a stream that carries several
/// (`/-/events`): there each event goes out after the subscriber's `tag`, a `data:` line naming the
/// page, and a `reset` ends only that page's subscription, not the stream.
final class LiveChannel: Sendable {
    struct Subscriber {
        let stream: EventStream
        let format: PatchFormat
        let tag: [UInt8]?
    }

    // One stream may hold several subscriptions to one variant (two tabs showing it at different versions).
    struct Key: Hashable {
        let stream: ObjectIdentifier
        let tag: [UInt8]?
    }

    struct State {
        var log: PatchLog
        var subscribers: [Key: Subscriber] = [:]
    }

    /// Bytes a subscriber may have unread before it is sent `reset` and dropped.
    let subscriberBufferLimit: Int
    private let state: Mutex<State>
    private let metrics: LiveMetrics?

    init(latestID: Int, logCapacity: Int, logByteLimit: Int = .max, subscriberBufferLimit: Int, metrics: LiveMetrics? = nil) {
        self.subscriberBufferLimit = subscriberBufferLimit
        self.metrics = metrics
        state = Mutex(State(log: PatchLog(capacity: logCapacity, byteLimit: logByteLimit, latestID: latestID)))
    }

    var latestID: Int { state.withLock { $0.log.latestID } }
    /// Bytes the patch log holds now.
    var logByteCount: Int { state.withLock { $0.log.byteCount } }
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Adds `stream` as a subscriber. With `lastSeenID` it first gets the patches it missed, or a
    /// `reset` (and no subscription) when they are gone or would not fit in what the subscriber may
    /// have unread (``subscriberBufferLimit``): a replay is bounded like live patches are.
    /// With a `tag` (one page of a shared stream) every event goes out after it, and a `reset`
    /// leaves the stream open for its other pages. Returns whether it subscribed.
    @discardableResult
    func subscribe(_ stream: EventStream, format: PatchFormat, lastSeenID: Int?, tag: [UInt8]? = nil) -> Bool {
        let key = Key(stream: ObjectIdentifier(stream), tag: tag)
        let tagBytes = tag?.count ?? 0
        let subscribed = state.withLock { state -> Bool in
            if let lastSeenID {
                switch state.log.replay(after: lastSeenID) {
                case .upToDate:
                    metrics?.replayed(bytes: 0)
                case .entries(let missed) where stream.bufferedByteCount
                    + missed.reduce(0, { $0 + tagBytes + $1.bytes(for: format).count }) <= subscriberBufferLimit:
                    var bytes = 0
                    for entry in missed {
                        let patch = entry.bytes(for: format)
                        Self.write(patch, to: stream, tag: tag)
                        bytes += patch.count
                    }
                    metrics?.replayed(bytes: bytes)
                case .entries, .reset:
                    Self.write(Self.resetEvent(latestID: state.log.latestID), to: stream, tag: tag)
                    if tag == nil { stream.finish() }
                    metrics?.resets.increment()
                    return false
                }
            }
            state.subscribers[key] = Subscriber(stream: stream, format: format, tag: tag)
            return true
        }
        guard subscribed else { return false }
        stream.onTermination { [weak self] in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        return true
    }

    /// Writes `event` to `stream`, after `tag` when it has one, as one write: another page's event
    /// must not come between a shared stream's tag and the event it names.
    @discardableResult
    private static func write(_ event: [UInt8], to stream: EventStream, tag: [UInt8]?) -> Bool {
        guard let tag else { return stream.write(event) }
        return stream.write(contentsOf: [tag, event])
    }

    /// Records a patch and writes it to every subscriber; a subscriber too far behind is sent `reset`
    /// and dropped instead, so a slow reader never makes memory grow without bound.
    func publish(_ entry: PatchLog.Entry) {
        let (dropped, sent) = state.withLock { state -> ([Subscriber], Int) in
            state.log.append(entry)
            var dropped: [Subscriber] = []
            var sent = 0
            for (key, subscriber) in state.subscribers {
                let bytes = entry.bytes(for: subscriber.format)
                if subscriber.stream.bufferedByteCount + (subscriber.tag?.count ?? 0) + bytes.count > subscriberBufferLimit {
                    dropped.append(subscriber)
                    state.subscribers[key] = nil
                } else if Self.write(bytes, to: subscriber.stream, tag: subscriber.tag) {
                    sent += bytes.count
                } else {
                    state.subscribers[key] = nil
                }
            }
            return (dropped, sent)
        }
        metrics?.published(bytesSent: sent, dropped: dropped.count)
        let reset = Self.resetEvent(latestID: entry.id)
        for subscriber in dropped {
            // Past its limit, but the reset is tiny and tells the client to refetch and reconnect.
            // A shared stream ends too: its reader is slow for all of its pages, and reconnects
            // with each page's own id, replayed where the log still has it.
            Self.write(reset, to: subscriber.stream, tag: subscriber.tag)
            subscriber.stream.finish()
        }
    }

    /// Sends every subscriber `reset` and drops it (its page changed shape): a stream of this
    /// variant alone ends, a shared one stays open for its other pages.
    func resetAll() {
        let (subscribers, reset) = state.withLock { state in
            defer { state.subscribers = [:] }
            return (Array(state.subscribers.values), Self.resetEvent(latestID: state.log.latestID))
        }
        for subscriber in subscribers {
            Self.write(reset, to: subscriber.stream, tag: subscriber.tag)
            if subscriber.tag == nil { subscriber.stream.finish() }
        }
        metrics?.resets.increment(by: subscribers.count)
    }

    /// `event: reset`: the client must refetch the page, then subscribe again from its version.
    static func resetEvent(latestID: Int) -> [UInt8] {
        EventStream.encode(event: PageContract.PatchEvent.reset.rawValue, data: #"{"version":"# + String(latestID) + "}")
    }
}
