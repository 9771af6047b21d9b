/// Whether the listening connection keeps up with the database's version clock: each check
/// compares the clock with the highest version a notification delivered, and a version the clock
/// reached that no notification brings within ``limit`` means the connection stopped delivering
/// while staying open (its server process stopped, a network that drops packets silently).
///
/// A steady stream of writes keeps the clock a little ahead of the notifications all the time;
/// so the check waits for one version at a time, the clock's value when it first saw the gap,
/// rather than for the gap to close.
///
///     var lag = ListenerLag(limit: .seconds(5))
///     if let version = lag.stalledVersion(clock: 42, notified: 40, resumption: (1, 38), now: .now) { reconnect() }
struct ListenerLag {
    /// How long a version may go undelivered.
    let limit: Duration
    // The version known delivered without a notification: the clock when LISTEN last took effect
    // (every page re-reads then, so nothing before it is owed).
    private var floor: Int64?
    private var resumes: Int?
    // The version waited for, and since when.
    private var awaited: (version: Int64, since: ContinuousClock.Instant)?

    init(limit: Duration) {
        self.limit = limit
    }

    /// The version being waited for past ``limit``, or nil while the connection keeps up.
    /// `resumption` is the listener's count of LISTENs that took effect, and the clock just
    /// after the last: a new count means it (re)connected, and owes nothing up to that version
    /// (the clock now, when it could not be read then).
    mutating func stalledVersion(clock: Int64, notified: Int64?, resumption: (count: Int, version: Int64?), now: ContinuousClock.Instant) -> Int64? {
        if resumption.count != resumes {
            resumes = resumption.count
            floor = resumption.version ?? clock
            awaited = nil
        }
        let delivered = max(notified ?? .min, floor ?? .min)
        if let awaited, delivered >= awaited.version { self.awaited = nil }
        guard clock > delivered else { return nil }
        guard let awaited else {
            awaited = (clock, now)
            return nil
        }
        return now - awaited.since > limit ? awaited.version : nil
    }
}
