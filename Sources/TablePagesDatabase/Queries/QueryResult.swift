import Foundation
import TableStore

/// The rows one run of a visitor's SQL produced, at most as many as its ``QueryLimits`` allow.
public struct QueryResult: Sendable {
    /// The result's column names, in order (two may share a name).
    public var columns: [String]
    /// The rows, each one value per column.
    public var rows: [[SQLValue]]
    /// Whether the query had more rows than ``rows`` holds (the row or byte limit stopped it).
    public var truncated: Bool
    /// The tables the query reads (a view's tables in place of the view), named as the store's
    /// changes name them (``ChangedTables``): SQLite's tables by name; PostgreSQL's tables of the
    /// served schema by name and others as `"schema"."table"`. Nil when the runner cannot tell:
    /// a live query then re-runs on every change. What a live query watches.
    public var tables: Set<String>?
    /// How long it ran, in milliseconds.
    public var milliseconds: Double

    /// A result of `rows` under `columns`.
    public init(columns: [String], rows: [[SQLValue]], truncated: Bool, tables: Set<String>? = nil, milliseconds: Double = 0) {
        self.columns = columns
        self.rows = rows
        self.truncated = truncated
        self.tables = tables
        self.milliseconds = milliseconds
    }

    /// The milliseconds from `start` until now, as ``milliseconds`` and Datasette's `query_ms` count them.
    ///
    ///     let started = DispatchTime.now()
    ///     result.milliseconds = QueryResult.milliseconds(since: started)
    public static func milliseconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
    }

    /// Whether the column at `index` holds numbers only (NULLs aside), and some: its name then
    /// sits over the numbers' right edge.
    public func isNumeric(column index: Int) -> Bool {
        rows.contains { $0[index] != .null } && rows.allSatisfy { row in
            switch row[index] {
            case .null, .integer, .real: true
            case .text, .blob, .bool: false
            }
        }
    }
}
