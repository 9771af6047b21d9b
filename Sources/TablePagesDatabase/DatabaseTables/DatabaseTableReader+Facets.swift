import GRDB
import TableStore

extension DatabaseTableReader {
    /// The most values one facet lists, Datasette's `default_facet_size`; the rest are counted
    /// out by ``DatabaseFacet/isTruncated``.
    static let maxFacetValues = 30

    /// The counts of each facet's values among the variant's rows (its filters and search; not
    /// its group), most frequent first, ties in SQLite's order of the values: the column facets,
    /// then the date facets, then the array facets, each in the order asked. A page counts NULL
    /// as a value like any other (`includingNull`); Datasette's `facet_results` leave it out.
    /// A value of a column with a foreign key carries the referenced row's label. One `GROUP BY`
    /// per facet and one label query per linked facet, all in one read, so the counts agree with
    /// each other and the whole read is bounded by the store's query time limit.
    func facets(_ asked: [(column: String, kind: DatabaseFacet.Kind)]? = nil, size: Int = maxFacetValues, includingNull: Bool = true) throws -> [DatabaseFacet] {
        let asked = asked ?? DatabaseFacet.Kind.allCases.flatMap { kind in query.facetColumns(kind).map { ($0, kind) } }
        guard !asked.isEmpty else { return [] }
        return try readingSearch { db in
            try asked.map { try facet($0.column, kind: $0.kind, size: size, includingNull: includingNull, in: db) }
        }
    }

    /// One facet: `size + 1` values are read, so a column with more than `size` is known to be cut.
    private func facet(_ column: String, kind: DatabaseFacet.Kind, size: Int, includingNull: Bool, in db: any SQLSession) throws -> DatabaseFacet {
        let filter = filterClause()
        let sql = facetSQL(column, kind: kind, size: size, includingNull: includingNull, filter: filter)
        var values: [DatabaseFacet.Value]
        do {
            values = try db.rows(sql, filter.arguments).map { row in
                DatabaseFacet.Value(value: row[0], count: row[1].intValue ?? 0)
            }
        } catch let error as DatabaseError where kind == .array && error.resultCode == .SQLITE_ERROR {
            throw DatabaseFacetError(column: column, reason: error.message ?? "malformed JSON")
        }
        let isTruncated = values.count > size
        values = Array(values.prefix(size))
        if kind == .column, let link = schema.linkedColumns.first(where: { $0.column == column }), link.labelColumn != nil {
            let labels = try DatasetteLabels.labels(of: link, values: values.map(\.value), dialect: schema.dialect, runner: db)
            for index in values.indices { values[index].label = labels[values[index].value] }
        }
        return DatabaseFacet(column: column, kind: kind, values: values, isTruncated: isTruncated)
    }

    /// The query of one facet's counts, as Datasette's facets count: a column's values (NULL
    /// too when `includingNull`), the dates SQLite's `date()` reads in them (never NULL), or the
    /// distinct items of each row's JSON array.
    private func facetSQL(_ column: String, kind: DatabaseFacet.Kind, size: Int, includingNull: Bool, filter: SQLClause) -> String {
        let quoted = SQLIdentifier.quoted(column)
        switch kind {
        case .column:
            let notNull = includingNull ? "" : (filter.sql.isEmpty ? " WHERE " : " AND ") + "\(quoted) IS NOT NULL"
            let nulls = includingNull ? schema.dialect.nullOrder(descending: false) : ""
            return "SELECT \(schema.selected(column)), count(*) FROM \(schema.quotedName)\(filter.sql)\(notNull) GROUP BY \(quoted) ORDER BY 2 DESC, \(schema.ordered(column))\(nulls) LIMIT \(size + 1)"
        case .date:
            let date = "date(\(quoted))"
            let notNull = (filter.sql.isEmpty ? " WHERE " : " AND ") + "\(date) IS NOT NULL"
            return "SELECT \(date) AS value, count(*) FROM \(schema.quotedName)\(filter.sql)\(notNull) GROUP BY value ORDER BY 2 DESC, value LIMIT \(size + 1)"
        case .array:
            // Each row's item once, however often its array repeats it, as Datasette counts them;
            // the filters apply in a subquery of their own, where no name of json_each's is in
            // scope. Text that is not JSON fails the query, as in Datasette.
            let keys = schema.key.isEmpty ? schema.columns : schema.key
            let keyNames = keys.indices.map { "k\($0)" }
            let selectedKeys = zip(keys, keyNames).map { "\(SQLIdentifier.quoted($0)) AS \($1)" }.joined(separator: ", ")
            let rows = "SELECT \(selectedKeys), \(quoted) AS facet_items FROM \(schema.quotedName)\(filter.sql)"
            let items = "SELECT DISTINCT \(keyNames.map { "r." + $0 }.joined(separator: ", ")), j.value AS value FROM (\(rows)) AS r, json_each(r.facet_items) AS j"
            return "SELECT value, count(*) FROM (\(items)) AS items GROUP BY value ORDER BY 2 DESC, value LIMIT \(size + 1)"
        }
    }
}
