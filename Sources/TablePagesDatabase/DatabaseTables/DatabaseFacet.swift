import TableStore
import TableKit

/// The counts of one column's values among a page's rows (with its filters and search), most
/// frequent first: Datasette's facets, asked for with `_facet=column`.
struct DatabaseFacet: Sendable, Hashable {
    /// One value and how many rows have it.
    struct Value: Sendable, Hashable {
        /// The value (NULL counts too).
        var value: SQLValue
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

extension DatabaseFacet {
    /// The page JSON's `facets` member: `{"facets": {"col": {"values": [{"value": v, "count": n}, …],
    /// "truncated": bool}, …}}`, columns in the order asked, values typed as in a row's `fields`
    /// (numbers, `null`, text cut as in a page, blobs as base64).
    static func jsonProperty(_ facets: [DatabaseFacet]) -> JSONProperty {
        JSONProperty(name: "facets", value: .object(facets.map { facet in
            JSONProperty(name: facet.column, value: .object([
                JSONProperty(name: "values", value: .array(facet.values.map { value in
                    .object([
                        JSONProperty(name: "value", value: jsonValue(value.value)),
                        JSONProperty(name: "count", value: .integer(Int64(value.count))),
                    ])
                })),
                JSONProperty(name: "truncated", value: .bool(facet.isTruncated)),
            ]))
        }))
    }

    /// A value as a page's `fields` carry it: the record cell's JSON, or its text.
    private static func jsonValue(_ value: SQLValue) -> JSONValue {
        let field = DatabaseRecordCell.field("", value)
        return field.json ?? .string(field.value)
    }
}
