import Synchronization

/// How long one read may run, changeable while a store is in use: where ``Store`` and
/// `PostgresStore` keep their `queryTimeLimit`.
///
///     let setting = QueryTimeLimitSetting(.seconds(1), resolution: .milliseconds(1))
///     setting.limit = .milliseconds(250)
public final class QueryTimeLimitSetting: Sendable {
    // In nanoseconds, a multiple of the resolution; 0 when reads may run for as long as they take.
    private let nanoseconds: Atomic<Int64>
    private let resolution: Int64

    /// A setting at `limit` (nil for none), kept in whole multiples of `resolution` (what the
    /// database can enforce: PostgreSQL's `statement_timeout` counts milliseconds).
    public init(_ limit: Duration?, resolution: Duration = .nanoseconds(1)) {
        self.resolution = max(1, Self.nanoseconds(in: resolution))
        nanoseconds = Atomic(0)
        self.limit = limit
    }

    /// The limit; nil for none. A limit shorter than the resolution is none.
    public var limit: Duration? {
        get {
            let value = nanoseconds.load(ordering: .relaxed)
            return value > 0 ? .nanoseconds(value) : nil
        }
        set {
            let value = newValue.map(Self.nanoseconds(in:)) ?? 0
            nanoseconds.store(max(0, value / resolution * resolution), ordering: .relaxed)
        }
    }

    /// The limit in whole milliseconds; 0 for none.
    public var milliseconds: Int64 {
        nanoseconds.load(ordering: .relaxed) / 1_000_000
    }

    // Saturates, so an absurdly long limit means "very long" rather than a trap.
    private static func nanoseconds(in duration: Duration) -> Int64 {
        let (seconds, overflow) = duration.components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return duration.components.seconds < 0 ? .min : .max }
        let (total, overflowAgain) = seconds.addingReportingOverflow(duration.components.attoseconds / 1_000_000_000)
        return overflowAgain ? .max : total
    }
}
