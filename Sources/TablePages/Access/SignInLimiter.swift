import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Limits wrong sign-in tokens per client address with a token bucket: a burst of attempts, then
/// a steady few per second, so guessing the sign-in token from one address (or one IPv6 /64,
/// which one client usually has whole) goes at a handful of tries a second instead of thousands.
///
/// Only wrong tokens take from the bucket; an empty bucket refuses every attempt, right or wrong,
/// so the refusal says nothing about the token. The table of addresses is bounded in bytes: when
/// it is full, addresses whose buckets are full again are dropped, and new addresses beyond that
/// share one bucket (which a flood from many addresses then empties for them all, but not for the
/// addresses already in the table).
final class SignInLimiter: Sendable {
    /// What one address costs in the table, estimated: its key (up to 39 bytes of text), its
    /// bucket and the dictionary's slot and overhead.
    static let bytesPerAddress = 128

    private struct Bucket {
        var tokens: Double
        var updated: Date
        /// Whether its address was refused since it was last let through (the refusal is logged once).
        var refused = false
    }

    private struct LimiterState {
        var buckets: [String: Bucket] = [:]
        var overflow: Bucket
        var lastPrune = Date.distantPast
    }

    /// What ``admit(_:)`` decides.
    enum Decision: Equatable {
        /// The attempt may go ahead.
        case admitted
        /// Refused: try again after this many seconds. `first` is true for the first refusal since
        /// the address was last admitted, the one worth logging.
        case refused(retryAfter: Int, first: Bool)
    }

    let burst: Int
    let perSecond: Double
    /// Most addresses kept: the byte limit over ``bytesPerAddress``.
    let capacity: Int
    private let now: @Sendable () -> Date
    private let state: Mutex<LimiterState>

    /// A limiter allowing `burst` wrong attempts at once, then `perSecond`, per address, keeping at
    /// most `byteLimit` bytes of addresses.
    init(burst: Int, perSecond: Double, byteLimit: Int, now: @escaping @Sendable () -> Date = Date.init) {
        self.burst = max(1, burst)
        self.perSecond = perSecond > 0 ? perSecond : 1
        self.capacity = max(1, byteLimit / Self.bytesPerAddress)
        self.now = now
        self.state = Mutex(LimiterState(overflow: Bucket(tokens: Double(max(1, burst)), updated: now())))
    }

    /// Whether a sign-in attempt from `address` may be checked now.
    func admit(_ address: String?) -> Decision {
        let key = Self.key(address)
        let now = now()
        return state.withLock { state in
            withBucket(key, in: &state, now: now) { bucket in
                if bucket.tokens >= 1 {
                    bucket.refused = false
                    return .admitted
                }
                let first = !bucket.refused
                bucket.refused = true
                return .refused(retryAfter: max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up))), first: first)
            }
        }
    }

    /// Takes one attempt from `address`'s bucket: its token was wrong.
    func recordFailure(_ address: String?) {
        let key = Self.key(address)
        let now = now()
        state.withLock { state in
            withBucket(key, in: &state, now: now) { bucket in bucket.tokens = max(0, bucket.tokens - 1) }
        }
    }

    /// Addresses in the table now (tests).
    var count: Int { state.withLock { $0.buckets.count } }

    /// Calls `body` with `key`'s bucket refilled up to `now`, adding it (or, in a full table, the
    /// shared overflow bucket) when it is new.
    private func withBucket<Result>(_ key: String, in state: inout LimiterState, now: Date, _ body: (inout Bucket) -> Result) -> Result {
        if state.buckets[key] == nil, state.buckets.count >= capacity {
            prune(&state, now: now)
        }
        if state.buckets[key] == nil, state.buckets.count >= capacity {
            refill(&state.overflow, now: now)
            return body(&state.overflow)
        }
        var bucket = state.buckets[key] ?? Bucket(tokens: Double(burst), updated: now)
        refill(&bucket, now: now)
        let result = body(&bucket)
        state.buckets[key] = bucket
        return result
    }

    private func refill(_ bucket: inout Bucket, now: Date) {
        // A clock set back adds nothing rather than taking away.
        let elapsed = max(0, now.timeIntervalSince(bucket.updated))
        bucket.tokens = min(Double(burst), bucket.tokens + elapsed * perSecond)
        bucket.updated = now
    }

    /// Drops the addresses whose buckets are full again: they hold nothing a new bucket would not.
    /// At most once a second, so a flood of new addresses does not scan the table for each.
    private func prune(_ state: inout LimiterState, now: Date) {
        guard now.timeIntervalSince(state.lastPrune) >= 1 || now < state.lastPrune else { return }
        state.lastPrune = now
        let full = Double(burst)
        state.buckets = state.buckets.filter { _, bucket in
            bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * perSecond < full
        }
    }

    /// The table's key for `address`: an IPv4 address (also one mapped into IPv6) as it is, an IPv6
    /// address's first 64 bits (one client commonly has a whole /64, and would otherwise have 2^64 buckets).
    static func key(_ address: String?) -> String {
        guard let address else { return "unknown" }
        guard address.contains(":") else { return address }
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        let isIPv4Mapped = withUnsafeBytes(of: bytes) { raw in
            raw.prefix(10).allSatisfy { $0 == 0 } && raw[10] == 0xff && raw[11] == 0xff
        }
        // An IPv4 client of a dual-stack socket (`::ffff:192.0.2.7`) is one address, not a /64.
        if isIPv4Mapped { return address }
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in 8..<16 { raw[index] = 0 }
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count)) != nil else { return address }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/64"
    }
}
