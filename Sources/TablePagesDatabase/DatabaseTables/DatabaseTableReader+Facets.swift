import TableStore

extension DatabaseTableReader {
    /// The most values one facet lists, Datasette's `default_facet_size`; the rest are counted
    /// out by ``DatabaseFacet/isTruncated``.
    static let maxFacetValues = 30

    /// The counts of each facet column's values among the variant's rows (its filters and
    /// search; not its group), most frequent first, ties in SQLite's order of the values; NULL is
    /// a value like any other. One `GROUP BY` per facet, all in one read, so the counts agree with
    /// each other and the whole read is bounded by the store's query time limit.
    func facets() throws -> [DatabaseFacet] {
        guard !query.facets.isEmpty else { return [] }
        return try database.snapshot { db in try query.facets.map { try facet($0, in: db) } }
    }

    /// One facet: `bound + 1` values are read, so a column with more than `bound` is known to be cut.
    private func facet(_ column: String, in db: any SQLSession) throws -> DatabaseFacet {
        let filter = filterClause()
        let quoted = SQLIdentifier.quoted(column)
        let bound = Self.maxFacetValues
        let sql = "SELECT \(schema.selected(column)), count(*) FROM \(schema.quotedName)\(filter.sql) GROUP BY \(quoted) ORDER BY 2 DESC, \(schema.ordered(column))\(schema.dialect.nullOrder(descending: false)) LIMIT \(bound + 1)"
        let values = try db.rows(sql, filter.arguments).map { row in
            DatabaseFacet.Value(value: row[0], count: row[1].intValue ?? 0)
        }
        return DatabaseFacet(column: column, values: Array(values.prefix(bound)), isTruncated: values.count > bound)
    }
}
