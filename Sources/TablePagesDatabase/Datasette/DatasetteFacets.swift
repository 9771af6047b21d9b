import TableStore
import TableKit

/// Datasette 0.65's facets in its table JSON: `facet_results` for `_facet`, `_facet_date` and
/// `_facet_array` (each repeatable, `_facet_size` values each), and `suggested_facets`, with its
/// keys, values, labels and `toggle_url`s, counted by the table pages' own readers
/// (``DatabaseTableReader/facets(_:size:includingNull:)``,
/// ``DatabaseTableReader/suggestedFacets(rowCount:columns:size:budget:)``).
///
/// As in Datasette: no facets for `_shape=array` or `object` nor with `_nofacet`, no suggestions
/// with `_next` or `_nosuggest` either; a column facet leaves NULL out; a value of a column with a
/// foreign key is labelled with the referenced row's label (its own text when that table has no
/// label column).
struct DatasetteFacets: Sendable {
    /// The facets asked for, column facets first, then date, then array ones, each in the order
    /// asked (repeats kept: Datasette answers each).
    var asked: [(column: String, kind: DatabaseFacet.Kind)] = []
    /// Values per facet (`_facet_size`, `max` for ``DatasetteTableRequest/maxSize``).
    var size = DatabaseTableReader.maxFacetValues
    /// Whether to count the facets.
    var counts = true
    /// Whether to look for facets worth adding.
    var suggests = true

    /// The heading of Datasette's errors about a facet: it hands on SQLite's refusal.
    static let errorTitle = "Invalid SQL"

    /// Reads what `items` ask of the facets; `shape` is the request's.
    /// - Throws: ``DatasetteTableRequest/Refusal`` naming an unknown column, as Datasette's
    ///   `no such column`.
    init(_ items: [(name: String, value: String)], table: DatasetteTable, shape: DatasetteTableRequest.Shape) throws(DatasetteTableRequest.Refusal) {
        let first = Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        counts = shape != .array && shape != .object && (first["_nofacet"] ?? "").isEmpty
        suggests = counts && first["_next"] == nil && (first["_nosuggest"] ?? "").isEmpty
        if let custom = first["_facet_size"], !custom.isEmpty {
            if custom == "max" {
                size = DatasetteTableRequest.maxSize
            } else if custom.allSatisfy(\.isASCII), custom.allSatisfy(\.isNumber) {
                size = Int(custom) ?? DatasetteTableRequest.maxSize
            }
        }
        size = min(size, DatasetteTableRequest.maxSize)
        for kind in DatabaseFacet.Kind.allCases {
            for item in items where item.name == kind.parameter {
                guard table.columns.contains(item.value) || (table.usesRowID && item.value == DatasetteTable.rowIDName) else {
                    throw DatasetteTableRequest.Refusal(message: "no such column: \(item.value)")
                }
                asked.append((item.value, kind))
            }
        }
    }

    /// The counted facets and the suggestions.
    struct Result: Sendable {
        var facets: [DatabaseFacet] = []
        var suggestions: [DatabaseFacet.Suggestion] = []
    }

    /// Counts the facets and finds the suggestions among `reader`'s rows, `rowCount` of them.
    /// - Throws: the store's errors, and a ``DatasetteTableReader/Refusal`` for an array facet of
    ///   a column that is not JSON (Datasette's `malformed JSON`).
    func read(_ reader: DatabaseTableReader, rowCount: Int, table: DatasetteTable) throws -> Result {
        var result = Result()
        if counts, !asked.isEmpty {
            do {
                result.facets = try reader.facets(asked, size: size, includingNull: false)
            } catch let error as DatabaseFacetError {
                throw DatasetteTableReader.Refusal(message: error.reason, title: Self.errorTitle)
            }
        }
        if suggests {
            // Datasette looks at every column of `select *` (and the rowid, which is never worth a facet).
            result.suggestions = reader.suggestedFacets(rowCount: rowCount, columns: table.columns, size: size)
                .filter { suggestion in !asked.contains { $0.column == suggestion.column && $0.kind == suggestion.kind } }
        }
        return result
    }
}
