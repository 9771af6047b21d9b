import Foundation

/// How much one run of arbitrary SQL may take: rows, bytes of values, and time.
///
///     var limits = QueryLimits()
///     limits.rows = 500
public struct QueryLimits: Sendable, Equatable {
    /// The default row limit: Datasette's `max_returned_rows`.
    public static let defaultRows = 1_000
    /// The default byte limit: 8 MiB of the answer's cells.
    public static let defaultBytes = 8 << 20

    /// Most rows one query answers; it is marked truncated beyond.
    public var rows = QueryLimits.defaultRows
    /// Most bytes of cells one query answers, as its encodings take them (``QueryAnswerSize``:
    /// text as its JSON and HTML together, which a live query's page holds both of); it is marked truncated before the row that passes it (refused when
    /// that is the first row). Also the most bytes of any one value while the query runs:
    /// SQLite's `SQLITE_LIMIT_LENGTH` on the SQL page's connection, PostgreSQL's rows are refused
    /// past it before they are sent.
    public var bytes = QueryLimits.defaultBytes
    /// The longest one query may run; nil for no limit.
    public var time: Duration? = .seconds(1)

    /// The defaults: 1,000 rows, 8 MiB, 1 s.
    public init() {}

    /// `bytes` for people: `8 MiB`, `1.5 KiB`, `300 bytes`.
    public static func describe(bytes: Int) -> String {
        let units = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        guard let (size, unit) = units.first(where: { bytes >= $0.0 }) else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let amount = Double(bytes) / Double(size)
        return (amount == amount.rounded() ? String(Int(amount)) : String(format: "%.1f", amount)) + " " + unit
    }
}
