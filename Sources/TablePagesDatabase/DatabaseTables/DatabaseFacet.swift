import TableStore
import TableKit

/// The counts of one column's values among a page's rows (with its filters and search), most
/// frequent first: Datasette's facets, asked for with `_facet=column`, `_facet_date=column`
/// (the values' dates) or `_facet_array=column` (the items of JSON arrays).
struct DatabaseFacet: Sendable, Hashable {
    /// What a facet counts, as Datasette names its facet types.
    enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The column's values (`_facet`).
        case column
        /// The dates of the column's values, as SQLite's `date()` reads them (`_facet_date`).
        case date
        /// The items of the column's JSON arrays, each counted once per row (`_facet_array`).
        case array

        /// The query parameter that asks for a facet of this kind.
        var parameter: String {
            switch self {
            case .column: "_facet"
            case .date: "_facet_date"
            case .array: "_facet_array"
            }
        }

        /// The filter operator a value of such a facet picks rows with (`status__exact`,
        /// `ordered_at__date`, `tags__arraycontains`), as Datasette's facets link their values.
        var filterOperator: String {
            switch self {
            case .column: "exact"
            case .date: "date"
            case .array: "arraycontains"
            }
        }
    }

    /// One value and how many rows have it.
    struct Value: Sendable, Hashable {
        /// The value (NULL counts too in a page's column facet).
        var value: SQLValue
        /// Rows with that value.
        var count: Int
        /// The label of the row the value references, for a column with a foreign key whose
        /// table has a label column: `.some(nil)` when that row's label is NULL, nil when the
        /// column references nothing or the row is missing.
        var label: DatasetteLabels.Label? = nil
    }

    /// The column, in the schema's spelling.
    var column: String
    /// What is counted.
    var kind: Kind = .column
    /// The most frequent values, at most a bound's worth.
    var values: [Value]
    /// Whether the column has more distinct values than `values` holds.
    var isTruncated: Bool
}

extension DatabaseFacet {
    /// The page JSON's `facets` member: `{"facets": {"col": {"type": "column", "values": [{"value":
    /// v, "count": n, "label"?: "…"}, …], "truncated": bool}, …}}`, in the order asked (column,
    /// then date, then array facets), a second facet of one column named `col_2` as Datasette
    /// names it; values typed as in a row's `fields` (numbers, `null`, text cut as in a page,
    /// blobs as base64), `label` the referenced row's label where there is one.
    static func jsonProperty(_ facets: [DatabaseFacet]) -> JSONProperty {
        JSONProperty(name: "facets", value: .object(zip(keys(of: facets), facets).map { key, facet in
            JSONProperty(name: key, value: .object([
                JSONProperty(name: "type", value: .string(facet.kind.rawValue)),
                JSONProperty(name: "values", value: .array(facet.values.map { value in
                    var members = [
                        JSONProperty(name: "value", value: jsonValue(value.value)),
                        JSONProperty(name: "count", value: .integer(Int64(value.count))),
                    ]
                    if let label = value.label { members.append(JSONProperty(name: "label", value: label.map(JSONValue.string) ?? .null)) }
                    return .object(members)
                })),
                JSONProperty(name: "truncated", value: .bool(facet.isTruncated)),
            ]))
        }))
    }

    /// Each facet's name in a document of them all: its column, then `column_2`, `column_3`…
    /// for later facets of a name already taken, as Datasette keys its `facet_results`.
    static func keys(of facets: [DatabaseFacet]) -> [String] {
        var taken: Set<String> = []
        return facets.map { facet in
            var key = facet.column
            var suffix = 1
            while taken.contains(key) {
                suffix += 1
                key = "\(facet.column)_\(suffix)"
            }
            taken.insert(key)
            return key
        }
    }

    /// A value as a page's `fields` carry it: the record cell's JSON, or its text.
    private static func jsonValue(_ value: SQLValue) -> JSONValue {
        let field = DatabaseRecordCell.field("", value)
        return field.json ?? .string(field.value)
    }
}
