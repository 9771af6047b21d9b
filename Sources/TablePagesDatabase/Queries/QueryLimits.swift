/// How much one run of arbitrary SQL may take: rows, bytes of values, and time.
///
///     var limits = QueryLimits()
///     limits.rows = 500
public struct QueryLimits: Sendable, Equatable {
    /// The default row limit: Datasette's `max_returned_rows`.
    public static let defaultRows = 1_000
    /// The default byte limit: 8 MiB of values.
    public static let defaultBytes = 8 << 20

    /// Most rows one query answers; it is marked truncated beyond.
    public var rows = QueryLimits.defaultRows
    /// Most bytes of values (text and blobs as their bytes, numbers as 8) one query answers; it is
    /// marked truncated at the row that passes it.
    public var bytes = QueryLimits.defaultBytes
    /// The longest one query may run; nil for no limit.
    public var time: Duration? = .seconds(1)

    /// The defaults: 1,000 rows, 8 MiB, 1 s.
    public init() {}
}
