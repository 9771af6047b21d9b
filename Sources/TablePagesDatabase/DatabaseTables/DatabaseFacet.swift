import GRDB

/// The counts of one column's values among a page's rows (with its filters and search), most
/// frequent first: Datasette's facets, asked for with `_facet=column`.
struct DatabaseFacet: Sendable, Hashable {
    /// One value and how many rows have it.
    struct Value: Sendable, Hashable {
        /// The value (NULL counts too).
        var value: DatabaseValue
        /// Rows with that value.
        var count: Int
    }

    /// The column, in the schema's spelling.
    var column: String
    /// The most frequent values, at most a bound's worth.
    var values: [Value]
    /// Whether the column has more distinct values than `values` holds.
    var isTruncated: Bool
}
