import GRDB
import TableStore

extension DatabaseTableReader {
    /// The most rows each column's checks read: the page's first rows in the table's key order.
    static let suggestionScanRows = 10_000
    /// The time the checks of one page may take together. Checked before each check; one check
    /// reads at most ``suggestionScanRows`` rows, and the whole read stays within the query time
    /// limit.
    static let suggestionBudget = Duration.milliseconds(200)
    /// The most JSON arrays an array facet's check looks into, as Datasette's does.
    static let arraySuggestionRows = 100

    /// The facets worth adding to the page, by Datasette 0.65's rules, in its order (every
    /// column facet, then every date facet, then every array facet), among the page's rows (its
    /// filters and search) whose count is `rowCount`:
    ///
    /// - a column facet for a column of more than one and at most `size` distinct non-NULL values,
    ///   fewer than the rows, with at least one value on two rows or more;
    /// - a date facet (SQLite) for a column one of whose first 100 values that look like a date
    ///   (`GLOB '????-??-*'`) SQLite's `date()` reads;
    /// - an array facet (SQLite) for a column whose values are all JSON arrays (or NULL or empty),
    ///   the first 100 non-empty ones arrays of strings only.
    ///
    /// `columns` are the columns looked at (by default the page's: not hidden ones nor the group
    /// column); a single key column is not looked at for a column facet (its values are all
    /// different), and a column already faceted in a kind is not suggested in it again.
    ///
    /// Bounded: each check reads at most the first ``suggestionScanRows`` of the page's rows in the
    /// key's order (not an index's, where the first rows would all share a value), all in one read
    /// within the query time limit, and the checks stop at `budget`: the facets found by then are
    /// the suggestions. A column a check cannot read (a type PostgreSQL cannot compare, text that
    /// is not JSON) is not suggested; any other failure leaves no suggestions rather than a late page.
    func suggestedFacets(rowCount: Int, columns: [String]? = nil, size: Int = maxFacetValues, budget: Duration = suggestionBudget) -> [DatabaseFacet.Suggestion] {
        let excluded = Set(query.hiddenColumns + (query.group.map { [$0] } ?? []))
        let candidates = columns ?? schema.columns.filter { !excluded.contains($0) }
        // A single key column's values are all different: never a column facet, and not worth a check.
        let unique = Set(schema.key.count == 1 ? schema.key + schema.primaryKeyColumns : [])
        guard !candidates.isEmpty else { return [] }
        let kinds: [DatabaseFacet.Kind] = schema.dialect == .sqlite ? [.column, .date, .array] : [.column]
        let deadline = ContinuousClock.now + budget
        do {
            return try readingSearch { db in
                var suggested: [DatabaseFacet.Suggestion] = []
                for kind in kinds {
                    let faceted = Set(query.facetColumns(kind))
                    for column in candidates where !faceted.contains(column) && !(kind == .column && unique.contains(column)) {
                        guard ContinuousClock.now < deadline else { return suggested }
                        if try worthFacet(column, kind: kind, rowCount: rowCount, size: size, in: db) {
                            suggested.append(DatabaseFacet.Suggestion(column: column, kind: kind))
                        }
                    }
                }
                return suggested
            }
        } catch {
            // Suggestions are a hint: a failure (the query time limit, a search SQLite refuses)
            // leaves them out and the page as it is.
            return []
        }
    }

    /// Whether a facet of `kind` on `column` is worth suggesting (see ``suggestedFacets(rowCount:columns:size:budget:)``).
    private func worthFacet(_ column: String, kind: DatabaseFacet.Kind, rowCount: Int, size: Int, in db: any SQLSession) throws -> Bool {
        let sample = sampleSQL(column)
        let arguments = sample.arguments
        do {
            switch kind {
            case .column:
                let sql = "SELECT count(*), coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM (\(sample.sql)) AS sample WHERE v IS NOT NULL GROUP BY v LIMIT \(size + 1)) AS counted"
                guard let row = try db.row(sql, arguments) else { return false }
                let distinct = row[0].intValue ?? 0
                return distinct > 1 && distinct < rowCount && distinct <= size && (row[1].intValue ?? 0) > 1
            case .date:
                let sql = "SELECT 1 FROM (SELECT date(v) AS d FROM (\(sample.sql)) AS sample WHERE v GLOB '????-??-*' LIMIT 100) AS dates WHERE d IS NOT NULL LIMIT 1"
                return try db.row(sql, arguments) != nil
            case .array:
                let types = try db.rows("SELECT DISTINCT json_type(v) FROM (\(sample.sql)) AS sample WHERE v IS NOT NULL AND v != ''", arguments).map { $0[0].stringValue }
                guard types.contains("array"), types.allSatisfy({ $0 == "array" || $0 == nil }) else { return false }
                let arrays = "SELECT v FROM (\(sample.sql)) AS sample WHERE v IS NOT NULL AND v != '' AND json_array_length(v) > 0 LIMIT \(Self.arraySuggestionRows)"
                let sql = "SELECT count(*), coalesce(sum(EXISTS (SELECT 1 FROM json_each(arrays.v) WHERE json_each.type != 'text')), 0) FROM (\(arrays)) AS arrays"
                guard let row = try db.row(sql, arguments) else { return false }
                return (row[0].intValue ?? 0) > 0 && row[1].intValue == 0
            }
        } catch let error as DatabaseError where schema.dialect == .sqlite && error.resultCode == .SQLITE_ERROR && !query.rawSearch {
            // Text that is not JSON makes json_type fail: the column holds no arrays. (A raw
            // search SQLite refuses fails the same way, and is the page's error to answer.)
            return false
        }
    }

    /// The first ``suggestionScanRows`` of the page's values of `column`, as `v`, in key order.
    private func sampleSQL(_ column: String) -> SQLClause {
        let filter = filterClause()
        let order = schema.key.isEmpty ? "" : " ORDER BY " + schema.key.map(schema.ordered).joined(separator: ", ")
        return SQLClause(sql: "SELECT \(schema.selected(column)) AS v FROM \(schema.quotedName)\(filter.sql)\(order) LIMIT \(Self.suggestionScanRows)", arguments: filter.arguments)
    }
}
