import MicroHTTP
import Synchronization
import TableKit

/// The subscribers of one page variant and its recent patches: a patch is encoded once and the same
/// bytes are written to every subscriber.
///
/// Subscribing (with its replay) and publishing take the same lock, so a patch is delivered to a new
/// subscriber exactly once: either in its replay or live, never both, never neither.
final class LiveChannel: Sendable {
    struct Subscriber {
        let stream: EventStream
        let format: PatchFormat
    }

    struct State {
        var log: PatchLog
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
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
    func subscribe(_ stream: EventStream, format: PatchFormat, lastSeenID: Int?) {
        let key = ObjectIdentifier(stream)
        let subscribed = state.withLock { state -> Bool in
            if let lastSeenID {
                switch state.log.replay(after: lastSeenID) {
                case .upToDate:
                    metrics?.replayed(bytes: 0)
                case .entries(let missed) where stream.bufferedByteCount
                    + missed.reduce(0, { $0 + $1.bytes(for: format).count }) <= subscriberBufferLimit:
                    var bytes = 0
                    for entry in missed {
                        let patch = entry.bytes(for: format)
                        stream.write(patch)
                        bytes += patch.count
                    }
                    metrics?.replayed(bytes: bytes)
                case .entries, .reset:
                    stream.write(Self.resetEvent(latestID: state.log.latestID))
                    stream.finish()
                    metrics?.resets.increment()
                    return false
                }
            }
            state.subscribers[key] = Subscriber(stream: stream, format: format)
            return true
        }
        guard subscribed else { return }
        stream.onTermination { [weak self] in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
    }

    /// Records a patch and writes it to every subscriber; a subscriber too far behind is sent `reset`
    /// and dropped instead, so a slow reader never makes memory grow without bound.
    func publish(_ entry: PatchLog.Entry) {
        let (dropped, sent) = state.withLock { state -> ([EventStream], Int) in
            state.log.append(entry)
            var dropped: [EventStream] = []
            var sent = 0
            for (key, subscriber) in state.subscribers {
                let bytes = entry.bytes(for: subscriber.format)
                if subscriber.stream.bufferedByteCount + bytes.count > subscriberBufferLimit {
                    dropped.append(subscriber.stream)
                    state.subscribers[key] = nil
                } else if subscriber.stream.write(bytes) {
                    sent += bytes.count
                } else {
                    state.subscribers[key] = nil
                }
            }
            return (dropped, sent)
        }
        metrics?.published(bytesSent: sent, dropped: dropped.count)
        let reset = Self.resetEvent(latestID: entry.id)
        for stream in dropped {
            // Past its limit, but the reset is tiny and tells the client to refetch and reconnect.
            stream.write(reset)
            stream.finish()
        }
    }

    /// `event: reset`: the client must refetch the page, then subscribe again from its version.
    static func resetEvent(latestID: Int) -> [UInt8] {
        EventStream.encode(event: PageContract.PatchEvent.reset.rawValue, data: #"{"version":"# + String(latestID) + "}")
    }
}
