import GRDB

/// The rows one run of a visitor's SQL produced, at most as many as its ``QueryLimits`` allow.
struct QueryResult: Sendable {
    /// The result's column names, in order (SQLite lets two share a name).
    var columns: [String]
    /// The rows, each one value per column.
    var rows: [[DatabaseValue]]
    /// Whether the query had more rows than ``rows`` holds (the row or byte limit stopped it).
    var truncated: Bool
    /// The tables the query reads (through views too): what a live query watches.
    var tables: Set<String>
    /// How long it ran, in milliseconds.
    var milliseconds: Double
}
