import GRDB

/// Runs the SQL of a database page inside one read (``DatabaseTableExecutor/read(_:)``): `?`
/// placeholders, values as GRDB's `DatabaseValue` (NULL, integer, real, text, blob) whatever the
/// database.
public protocol DatabaseTableQueryRunner {
    /// Calls `body` with each row's values, in order, while the rows are read; stops at its first error.
    ///
    /// `keepsPrepared` says that `sql` is one of a bounded set of texts (a variant without filters
    /// reads its pages with one text), which a runner may keep prepared on its connection; a runner
    /// must not keep the others, which are unboundedly many.
    func forEachRow(sql: String, arguments: [DatabaseValue], keepsPrepared: Bool, _ body: ([DatabaseValue]) throws -> Void) throws
}

extension DatabaseTableQueryRunner {
    /// Calls `body` with each row's values, in order, preparing `sql` for this call only.
    func forEachRow(sql: String, arguments: [DatabaseValue], _ body: ([DatabaseValue]) throws -> Void) throws {
        try forEachRow(sql: sql, arguments: arguments, keepsPrepared: false, body)
    }

    /// Every row of `sql`'s answer.
    func fetchAll(sql: String, arguments: [DatabaseValue], keepsPrepared: Bool = false) throws -> [[DatabaseValue]] {
        var rows: [[DatabaseValue]] = []
        try forEachRow(sql: sql, arguments: arguments, keepsPrepared: keepsPrepared) { rows.append($0) }
        return rows
    }

    /// The first row of `sql`'s answer, or nil when it has none.
    func fetchOne(sql: String, arguments: [DatabaseValue], keepsPrepared: Bool = false) throws -> [DatabaseValue]? {
        try fetchAll(sql: sql, arguments: arguments, keepsPrepared: keepsPrepared).first
    }

    /// The integer in the first column of the first row (a count); 0 when there is none.
    func fetchCount(sql: String, arguments: [DatabaseValue]) throws -> Int {
        try fetchOne(sql: sql, arguments: arguments).flatMap { $0.first.flatMap(Int.fromDatabaseValue) } ?? 0
    }
}
