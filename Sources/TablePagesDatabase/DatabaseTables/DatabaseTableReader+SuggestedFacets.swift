import TableStore

extension DatabaseTableReader {
    /// The most distinct values a suggested facet's column has among the page's rows: a facet
    /// lists that many (``maxFacetValues``).
    static var maxSuggestedValues: Int { maxFacetValues }
    /// The most rows each column's check reads: the page's first rows in the table's order.
    static let suggestionScanRows = 10_000
    /// The time the checks of one page may take together. Checked before each column; one
    /// column's check reads at most ``suggestionScanRows`` rows, and the whole read stays within
    /// the query time limit.
    static let suggestionBudget = Duration.milliseconds(50)

    /// The columns worth a facet (Datasette's suggested facets): those with at least two and at
    /// most ``maxSuggestedValues`` distinct non-NULL values among the page's rows (its filters and
    /// search), fewer than its `rowCount` rows, so some value repeats. Key columns, hidden
    /// columns, the group column and the columns already faceted are not checked.
    ///
    /// Bounded: one read, each column's check a `SELECT DISTINCT … LIMIT` that stops at the first
    /// ``maxSuggestedValues`` + 1 values (a column of many values is rejected after a few rows) and
    /// reads at most ``suggestionScanRows`` rows. When the checks run past ``suggestionBudget``
    /// (or the query time limit, or fail), there are no suggestions rather than a late page.
    func suggestedFacets(rowCount: Int, budget: Duration = suggestionBudget) -> [String] {
        let excluded = Set(schema.key + schema.primaryKeyColumns + query.facets + query.hiddenColumns + (query.group.map { [$0] } ?? []))
        let candidates = schema.columns.filter { !excluded.contains($0) }
        guard rowCount > 2, !candidates.isEmpty else { return [] }
        let deadline = ContinuousClock.now + budget
        do {
            return try readingSearch { db in
                var suggested: [String] = []
                for column in candidates {
                    guard ContinuousClock.now < deadline else { throw SuggestionBudgetExceeded() }
                    let distinct = try distinctValues(of: column, in: db)
                    if distinct >= 2 && distinct <= Self.maxSuggestedValues && distinct < rowCount { suggested.append(column) }
                }
                guard ContinuousClock.now < deadline else { throw SuggestionBudgetExceeded() }
                return suggested
            }
        } catch {
            // Suggestions are a hint: any failure (the budget, the time limit, a type PostgreSQL
            // cannot compare) leaves them out and the page as it is.
            return []
        }
    }

    /// The distinct non-NULL values of `column` among the page's first ``suggestionScanRows``
    /// rows, counted up to ``maxSuggestedValues`` + 1.
    func distinctValues(of column: String, in db: any SQLSession) throws -> Int {
        let filter = filterClause()
        let bigint = schema.dialect.placeholder(type: "bigint")
        // PostgreSQL wants every subquery named.
        let scanned = "SELECT \(schema.selected(column)) AS v FROM \(schema.quotedName)\(filter.sql) LIMIT \(bigint)"
        let sql = "SELECT count(*) FROM (SELECT DISTINCT v FROM (\(scanned)) AS scanned WHERE v IS NOT NULL LIMIT \(bigint)) AS distinct_values"
        return try db.count(sql, filter.arguments + [.integer(Self.suggestionScanRows), .integer(Self.maxSuggestedValues + 1)])
    }
}

/// The suggested facets' checks ran past their budget.
private struct SuggestionBudgetExceeded: Error {}
