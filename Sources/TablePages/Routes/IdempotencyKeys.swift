import MicroHTTP
import Synchronization

/// The answers to writes sent with an `Idempotency-Key` header, so that a client that did not
/// hear the answer (a timeout, a dropped connection, a 500 saying the outcome is unknown) can send
/// the same write again without doing it twice: a key seen before gets the first answer again,
/// marked `Idempotent-Replayed: true`, and the write is not repeated.
///
///     switch keys.begin(key) { case .fresh: …; keys.finish(key, with: response) … }
///
/// Keys belong to the actor who sent them and the URL they were sent to; one is remembered for
/// ``lifetime`` after its answer, and the answers kept hold at most ``byteLimit`` bytes together
/// (the oldest go first). An answer that says nothing was changed (4xx, 503) is not kept: trying
/// that write again is safe, and should be done. Kept in memory, per process.
final class IdempotencyKeys: Sendable {
    /// What a client's key is: the actor (or `anonymous`), the request's path, and the key itself.
    struct ClientKey: Hashable, Sendable {
        let actor: String
        let path: String
        let value: String
    }

    /// What ``begin(_:now:)`` found.
    enum Start: Sendable {
        /// A key not seen before: do the write, then ``finish(_:with:now:)``.
        case fresh
        /// The write with this key is still being done.
        case inProgress
        /// The answer the write with this key was given.
        case answered(Response)
    }

    private enum Record {
        case inProgress
        case answered(Response, bytes: Int, at: ContinuousClock.Instant)
    }

    private struct Ledger {
        var entries: [ClientKey: Record] = [:]
        // Answered keys, oldest first (appended as they finish).
        var order: [ClientKey] = []
        var orderStart = 0
        var bytes = 0
    }

    /// Bytes of kept answers (and their keys), for the whole process.
    let byteLimit: Int
    /// How long an answer is kept.
    let lifetime: Duration
    private let state = Mutex(Ledger())

    /// The longest key accepted, in bytes.
    static let maxKeyLength = 255
    /// The header a client sends its key in.
    static let header = "Idempotency-Key"

    init(byteLimit: Int, lifetime: Duration = .seconds(24 * 3600)) {
        self.byteLimit = byteLimit
        self.lifetime = lifetime
    }

    /// Why `value` cannot be a key, or nil when it can: 1 to 255 visible ASCII characters.
    static func problem(with value: String) -> String? {
        guard !value.isEmpty, value.utf8.count <= maxKeyLength, value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return "An \(header) is 1 to \(maxKeyLength) visible ASCII characters (a UUID, for example)."
        }
        return nil
    }

    /// Looks `key` up; a fresh key is marked in progress until ``finish(_:with:now:)`` or ``abandon(_:)``.
    func begin(_ key: ClientKey, now: ContinuousClock.Instant = .now) -> Start {
        state.withLock { state in
            expire(&state, now: now)
            switch state.entries[key] {
            case .inProgress: return .inProgress
            case .answered(let response, _, _): return .answered(response)
            case nil:
                state.entries[key] = .inProgress
                return .fresh
            }
        }
    }

    /// Keeps `response` as the answer to `key`, unless it says nothing was changed (then the key
    /// is forgotten, and the write may be sent again).
    func finish(_ key: ClientKey, with response: Response, now: ContinuousClock.Instant = .now) {
        guard Self.mayHaveChanged(response.status) else {
            abandon(key)
            return
        }
        let bytes = Self.cost(of: key, response)
        state.withLock { state in
            guard bytes <= byteLimit else {
                state.entries[key] = nil
                return
            }
            state.entries[key] = .answered(response, bytes: bytes, at: now)
            state.order.append(key)
            state.bytes += bytes
            while state.bytes > byteLimit, state.orderStart < state.order.count {
                drop(&state, state.order[state.orderStart])
                state.orderStart += 1
            }
            compact(&state)
        }
    }

    /// Forgets `key` (its write failed and changed nothing).
    func abandon(_ key: ClientKey) {
        state.withLock { state in
            if case .inProgress = state.entries[key] { state.entries[key] = nil }
        }
    }

    /// Bytes the kept answers take now.
    var bytes: Int { state.withLock { $0.bytes } }

    /// Whether an answer with `status` may follow a change: every success, and every server error
    /// but 503 (which this service sends only when nothing was changed).
    static func mayHaveChanged(_ status: Int) -> Bool {
        status < 400 || (status >= 500 && status != 503)
    }

    private static func cost(of key: ClientKey, _ response: Response) -> Int {
        let headers = response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        // A fixed part for the entry and its place in the order.
        return 128 + key.actor.utf8.count + key.path.utf8.count + key.value.utf8.count + response.bodyBytes.count + headers
    }

    private func expire(_ state: inout Ledger, now: ContinuousClock.Instant) {
        while state.orderStart < state.order.count {
            let key = state.order[state.orderStart]
            if case .answered(_, _, let at) = state.entries[key], now - at < lifetime { break }
            drop(&state, key)
            state.orderStart += 1
        }
        compact(&state)
    }

    private func drop(_ state: inout Ledger, _ key: ClientKey) {
        if case .answered(_, let bytes, _) = state.entries[key] {
            state.bytes -= bytes
            state.entries[key] = nil
        }
    }

    // Drops the consumed front of the order once it is half of it, so the array stays bounded.
    private func compact(_ state: inout Ledger) {
        if state.orderStart > 64, state.orderStart * 2 > state.order.count {
            state.order.removeFirst(state.orderStart)
            state.orderStart = 0
        }
    }
}
