import TableStore

/// Collects a query's rows under ``QueryLimits``, as both runners read them: at most
/// ``QueryLimits/rows`` rows, and rows whose cells (``QueryAnswerSize/cell(_:column:)``) add up
/// to at most ``QueryLimits/bytes``. The row that passes either limit is not kept: the result
/// is marked truncated before it, or, when it is the first row, refused (``rowTooLarge(_:)``),
/// since an empty answer would not say why. A live query's page links each row to its own URL,
/// which holds the query: `rowLinkBytes` counts that link once per row and once per value the
/// page shows cut (a blob, a text past `DatabaseRecordCell.maxShownBytes`).
///
///     var limiter = QueryResultLimiter(limits: limits, columns: names)
///     while let row = next(), try limiter.admit(row) {}
///     return limiter.result
public struct QueryResultLimiter: Sendable {
    /// What was kept so far.
    public private(set) var result: QueryResult
    private let limits: QueryLimits
    private let rowLinkBytes: Int
    private var bytes = 0

    /// A limiter with no rows yet, under `columns`, whose answers may link each row with a link of
    /// `rowLinkBytes` (``linkBytes(sql:parameters:)``; 0 when no answer links its rows).
    public init(limits: QueryLimits, columns: [String], rowLinkBytes: Int = 0) {
        self.limits = limits
        self.rowLinkBytes = rowLinkBytes
        result = QueryResult(columns: columns, rows: [], truncated: false)
    }

    /// Bytes of one link to a row of a live query page of `sql` with `parameters`: the page's
    /// path, the row's, and the query percent-encoded (at most 3 bytes a byte), HTML-escaped.
    public static func linkBytes(sql: String, parameters: [String: String]) -> Int {
        let query = parameters.reduce(sql.utf8.count) { $0 + $1.key.utf8.count + $1.value.utf8.count + 2 }
        return 3 * query + 128
    }

    /// The column names, when they are learnt with the first row.
    public mutating func name(columns: [String]) {
        result.columns = columns
    }

    /// Whether a row whose text and blobs hold `rawBytes` bytes may still fit, asked before its
    /// values are read: no encoding is shorter than the bytes themselves, so a row that fails
    /// here is left unread. Marks the result truncated when it does not fit.
    /// - Throws: ``QueryRefusal`` (``rowTooLarge(_:)``) when no row was kept yet.
    public mutating func mayFit(rawBytes: Int) throws -> Bool {
        guard result.rows.count < limits.rows else {
            result.truncated = true
            return false
        }
        return try fits(rawBytes)
    }

    /// Keeps `row` when it fits under both limits and answers true; else marks the result
    /// truncated and answers false: stop reading.
    /// - Throws: ``QueryRefusal`` (``rowTooLarge(_:)``) when `row` alone passes the byte limit.
    public mutating func admit(_ row: [SQLValue]) throws -> Bool {
        guard result.rows.count < limits.rows else {
            result.truncated = true
            return false
        }
        var size = rowLinkBytes
        for (index, value) in row.enumerated() {
            size += QueryAnswerSize.cell(value, column: index < result.columns.count ? result.columns[index] : "")
            if rowLinkBytes > 0, Self.isShownCut(value) { size += rowLinkBytes }
        }
        guard try fits(size) else { return false }
        bytes += size
        result.rows.append(row)
        return true
    }

    /// Whether a page shows `value` cut, linked to its row's own URL for the whole of it.
    private static func isShownCut(_ value: SQLValue) -> Bool {
        switch value {
        case .blob(let data): !data.isEmpty
        case .text(let text): text.utf8.count > DatabaseRecordCell.maxShownBytes
        default: false
        }
    }

    private mutating func fits(_ size: Int) throws -> Bool {
        if bytes + size <= limits.bytes { return true }
        if result.rows.isEmpty { throw Self.rowTooLarge(limits.bytes) }
        result.truncated = true
        return false
    }

    /// The refusal of a first row that alone passes `limit` bytes as encoded.
    public static func rowTooLarge(_ limit: Int) -> QueryRefusal {
        QueryRefusal(
            "The first row is larger than the size limit (\(QueryLimits.describe(bytes: limit)) as the page encodes it, --sql-result-size): select fewer or shorter columns, e.g. substr(x, 1, 1000) or length(x)."
        )
    }
}
