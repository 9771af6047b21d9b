import MicroHTTP

/// A database page's variant (a ``DatabaseTableQuery``) written back as query parameters in
/// Datasette's spelling, for the links and forms of the page's header (``DatabaseTableHeader``):
/// change a copy of the query, then write it.
///
///     var query = current
///     query.sort = "name"
///     query.descending = true
///     DatasetteQuery.string(query)  // "?_sort_desc=name&category__exact=books"
enum DatasetteQuery {
    /// One query parameter: its name and value, unencoded.
    struct Parameter: Hashable, Sendable {
        /// The name, e.g. `_sort` or `price__gte`.
        var name: String
        /// The value.
        var value: String
    }

    /// Ascending order by a column.
    static let sort = "_sort"
    /// Descending order by a column.
    static let sortDescending = "_sort_desc"
    /// Words for the table's FTS5 index.
    static let search = "_search"
    /// A column whose value counts the page shows (repeatable).
    static let facet = "_facet"
    /// A column the page leaves out (repeatable).
    static let hiddenColumn = "_nocol"

    /// The parameters that choose `query`, in a stable order: the sort (`_sort` or `_sort_desc`),
    /// each filter (`column__operator=value`), the search (`_search`), each facet (`_facet`, then
    /// `_facet_date` and `_facet_array`), each
    /// hidden column (`_nocol`), then the grouping column (`group`, this project's own).
    static func parameters(of query: DatabaseTableQuery) -> [Parameter] {
        var parameters: [Parameter] = []
        if let column = query.sort {
            parameters.append(Parameter(name: query.descending ? sortDescending : sort, value: column))
        }
        parameters += query.filters.map(parameter)
        if let words = query.search {
            parameters.append(Parameter(name: search, value: words))
        }
        for kind in DatabaseFacet.Kind.allCases {
            parameters += query.facetColumns(kind).map { Parameter(name: kind.parameter, value: $0) }
        }
        parameters += query.hiddenColumns.map { Parameter(name: hiddenColumn, value: $0) }
        if let group = query.group {
            parameters.append(Parameter(name: DatabaseTableQuery.groupParameter, value: group))
        }
        return parameters
    }

    /// `filter` as `column__operator=value`, with `1` as the value of the operators that take none.
    static func parameter(_ filter: DatabaseFilter) -> Parameter {
        Parameter(name: filter.column + "__" + filter.comparison.rawValue, value: filter.comparison.takesNoValue ? "1" : filter.value)
    }

    /// `query` as a relative URL that keeps the page's path: `?` and ``encoded(_:)`` of its
    /// parameters; `?` alone for the default variant. Escape it for an HTML attribute, where a
    /// bare `&not…` would read as a character reference.
    static func string(_ query: DatabaseTableQuery) -> String {
        "?" + encoded(parameters(of: query))
    }

    /// `name=value&…`, every name and value percent-encoded.
    static func encoded(_ parameters: [Parameter]) -> String {
        parameters.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }.joined(separator: "&")
    }
}
