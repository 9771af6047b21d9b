import TableStore
import Foundation
import TableKit
import TablePages

/// The shape of a database page's variant: the order of its rows, the column that splits them
/// into sections, the filters and search that pick them, and the columns whose values it counts.
///
/// Query parameters, this project's and Datasette's:
/// - `sort=col` / `sort=-col`, or `_sort=col` / `_sort_desc=col`: the order (the key breaks ties).
///   Several sort parameters must agree.
/// - `group=col`: one section per value of `col`.
/// - `col=value` or `col__exact=value`, and `col__{op}=value` for each ``DatabaseFilter/Operator``
///   (`in`/`notin` take a comma-separated list or a JSON array; `isnull`/`notnull` ignore the value).
///   A name splits at its last `__` when what follows is an operator and what precedes is a column;
///   otherwise the whole name must be a column (an exact filter). So with columns `a` and `a__gt`,
///   `a__gt=5` is `a > 5` (as in Datasette) and `a__gt__exact=5` is `"a__gt" = 5`; with only a
///   column `a__gt`, `a__gt=5` is `"a__gt" = 5`. Columns named `sort`, `group`, `limit`, `after`,
///   `format`, `lastEventId`, or starting with `_`, are filtered with `__exact`.
/// - `_search=words` (with `_searchmode=raw` for FTS5's own syntax), on a table with a full-text
///   index; `_facet=col`, repeatable, and `_facets=` (the list as one value; see
///   ``facetListParameter``); `_facet_date=col` and `_facet_array=col` (SQLite tables), likewise
///   repeatable, with `_facet_dates=` and `_facet_arrays=` for their lists.
/// - `_nocol=col`, repeatable (Datasette's): the page leaves the column out of its rows and
///   column headers (not a key column, which names the rows; the row's own page shows every
///   column). A variant's own links carry two or more as `_nocols=` (a list like `_facets`).
/// - Other names starting with `_` and holding no `__` (Datasette's `_shape`, `_labels`…) are
///   left alone, except `_where`, `_through` and `_search_col`, which would pick other rows than
///   asked and are refused. `limit`, `after`, `_size`, `_next`, `format` and `lastEventId` are the
///   routes'.
///
/// Every query that means the same gets the same variant parameters (``resolve(_:schema:)``), so
/// `?col=v` and `?col__exact=v`, or `?_sort_desc=x` and `?sort=-x`, share one live table.
struct DatabaseTableQuery: Sendable, Hashable {
    /// The sort column, or nil for the table's default order.
    var sort: String?
    /// Whether the order is descending (the key breaks ties in the same direction).
    var descending = false
    /// The column whose values make the sections.
    var group: String?
    /// The conditions the rows meet, all of them, in a stable order.
    var filters: [DatabaseFilter] = []
    /// Words to find with the table's FTS5 index (`_search`), or nil.
    var search: String?
    /// Whether ``search`` is FTS syntax to pass on as it is (`_searchmode=raw`) rather than words
    /// and phrases to find (a malformed raw query is a 400 when the page is read).
    var rawSearch = false
    /// The columns whose value counts the page shows (`_facet`, repeatable), in the order asked.
    var facets: [String] = []
    /// The columns whose values' dates the page counts (`_facet_date`, repeatable), in the order asked.
    var dateFacets: [String] = []
    /// The columns whose JSON arrays' items the page counts (`_facet_array`, repeatable), in the order asked.
    var arrayFacets: [String] = []
    /// Whether JSON expands each value of a linked column as Datasette's `_labels=on` does:
    /// `{"value": 1599, "label": "Ida Meyer"}` (see ``DatabaseLinkedColumn``).
    var labels = false
    /// The columns the page leaves out of its rows (`_nocol`, repeatable), in the schema's order.
    var hiddenColumns: [String] = []
    /// The id of the one row the variant shows (`_row`), whole: the variant a row's own page
    /// follows (``rowParameter``); nil for a page of rows.
    var row: String?

    static let sortParameter = "sort"
    static let groupParameter = "group"
    /// Datasette's ascending sort.
    static let ascendingSortParameter = "_sort"
    /// Datasette's descending sort.
    static let descendingSortParameter = "_sort_desc"
    static let searchParameter = "_search"
    static let searchModeParameter = "_searchmode"
    static let facetParameter = "_facet"
    /// Datasette's switch for expanding linked values with their labels in JSON.
    static let labelsParameter = "_labels"
    /// Two or more facets as one value (commas between names, `\` before a comma or backslash in
    /// a name): how a variant's own links carry a list that Datasette spells by repeating `_facet`.
    static let facetListParameter = "_facets"
    /// The parameters of the date and array facets, and of their lists (written as
    /// ``facetListParameter`` is).
    private static let typedFacetParameters: [String: (kind: DatabaseFacet.Kind, isList: Bool)] = [
        DatabaseFacet.Kind.date.parameter: (.date, false), DatabaseFacet.Kind.date.parameter + "s": (.date, true),
        DatabaseFacet.Kind.array.parameter: (.array, false), DatabaseFacet.Kind.array.parameter + "s": (.array, true),
    ]
    /// The parameter of the variant of one row, which a row's own page is read from and follows
    /// (``/TablePages/PageDefinition/rowVariantParameter``).
    static let rowParameter = "_row"
    /// Datasette's parameter that leaves a column out of the rows (repeatable).
    static let hiddenColumnParameter = "_nocol"
    /// Two or more hidden columns as one value, written as ``facetListParameter`` is.
    static let hiddenColumnListParameter = "_nocols"
    /// Datasette's parameters that pick rows in ways these pages do not: refused rather than ignored.
    private static let unsupportedParameters: Set<String> = ["_where", "_through"]
    private static let routeParameters = PageContract.Query.all

    /// The query of a variant chosen by ``resolve(_:schema:)``.
    init(variant parameters: [String: String], schema: DatabaseTableSchema) {
        // Variant parameters are what `resolve` returned, so they parse; the fallback is the default.
        self = (try? Self.parse(parameters.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }, schema: schema))
            ?? Self(sort: schema.defaultSort)
    }

    init(sort: String? = nil, descending: Bool = false, group: String? = nil, filters: [DatabaseFilter] = [], search: String? = nil, rawSearch: Bool = false, facets: [String] = []) {
        self.sort = sort
        self.descending = descending
        self.group = group
        self.filters = filters
        self.search = search
        self.rawSearch = rawSearch
        self.facets = facets
    }

    /// The variant parameters a request's query chooses, one spelling per meaning, with column
    /// names in the schema's spelling, or a message naming what is wrong.
    static func resolve(_ query: [(name: String, value: String)], schema: DatabaseTableSchema) throws(PageDefinition.VariantError) -> [String: String] {
        try parse(query, schema: schema).parameters(schema: schema)
    }

    /// The dictionary form, where each name has one value (the last one given).
    static func resolve(_ query: [String: String], schema: DatabaseTableSchema) throws(PageDefinition.VariantError) -> [String: String] {
        try resolve(query.map { (name: $0.key, value: $0.value) }, schema: schema)
    }

    // MARK: Reading a query

    private static func parse(_ query: [(name: String, value: String)], schema: DatabaseTableSchema) throws(PageDefinition.VariantError) -> DatabaseTableQuery {
        var sorts: [(parameter: String, column: String, descending: Bool)] = []
        var group: String?
        var search: String?
        var rawSearch = false
        var facets: [String] = []
        var typedFacets: [DatabaseFacet.Kind: [String]] = [:]
        var labels = false
        var hidden: Set<String> = []
        var filters: [FilterKey: Set<String>] = [:]
        var row: String?
        var items = query
        var index = 0
        while index < items.count {
            let (name, value) = items[index]
            index += 1
            guard !routeParameters.contains(name) else { continue }
            switch name {
            case sortParameter:
                let descending = value.hasPrefix("-")
                sorts.append((name, try known(String(value.dropFirst(descending ? 1 : 0)), for: "sorting", in: schema), descending))
            case ascendingSortParameter, descendingSortParameter:
                sorts.append((name, try known(value, for: "sorting", in: schema), name == descendingSortParameter))
            case groupParameter:
                let column = try known(value, for: "grouping", in: schema)
                guard group == nil || group == column else { throw failure("group is given twice, as \(quote(group ?? "")) and \(quote(column)); give one column.") }
                group = column
            case searchParameter:
                guard search == nil || search == value else { throw failure("_search is given twice; give it once.") }
                search = value
            case searchModeParameter:
                switch value {
                case "raw": rawSearch = true
                case "escaped": rawSearch = false
                default: throw failure("_searchmode must be raw (FTS5's own query syntax) or escaped (words and \"phrases\", the default); got \(quote(value)).")
                }
            case facetParameter:
                facets.append(try known(value, for: "a facet", in: schema))
            case facetListParameter:
                guard let names = facetNames(value) else { throw failure("_facets must list column names separated by commas, with \\ before a comma or backslash in a name.") }
                for name in names { facets.append(try known(name, for: "a facet", in: schema)) }
            case _ where typedFacetParameters[name] != nil:
                guard let (kind, isList) = typedFacetParameters[name] else { continue }
                guard schema.dialect == .sqlite else {
                    throw failure("\(name) is not supported on PostgreSQL tables: count a column's values with _facet instead.")
                }
                guard let names = isList ? facetNames(value) : [value] else { throw failure("\(name) must list column names separated by commas, with \\ before a comma or backslash in a name.") }
                for name in names { typedFacets[kind, default: []].append(try known(name, for: "a facet", in: schema)) }
            case hiddenColumnParameter:
                hidden.insert(try hideable(value, in: schema))
            case hiddenColumnListParameter:
                guard let names = facetNames(value) else { throw failure("_nocols must list column names separated by commas, with \\ before a comma or backslash in a name.") }
                for name in names { hidden.insert(try hideable(name, in: schema)) }
            case rowParameter:
                row = value
            case labelsParameter:
                guard let on = DatasetteSwitch.value(value) else {
                    throw failure("_labels must be on or off (also true/false, 1/0); got \(quote(value)).")
                }
                labels = on
            case _ where unsupportedParameters.contains(name) || name.hasPrefix("_search_"):
                throw failure("\(name) is not supported on these pages: filter with col__op=value parameters and search with _search.")
            case repeatedFiltersParameter:
                guard let pairs = repeatedFilters(value) else {
                    throw failure("\(repeatedFiltersParameter) must be a JSON array of [name, value] pairs, each a filter.")
                }
                items += pairs
            case _ where name.hasPrefix("_") && !name.contains("__"):
                continue
            default:
                // Repeated filters on one column all hold, as in Datasette: `n__not=1&n__not=2`.
                let key = try filterKey(name, schema: schema)
                filters[key, default: []].insert(try normalizedValue(value, for: key.comparison, parameter: name))
            }
        }
        for sort in sorts.dropFirst() where sort.column != sorts[0].column || sort.descending != sorts[0].descending {
            let spelled = sorts.map { "\($0.parameter)=\($0.descending && $0.parameter == sortParameter ? "-" : "")\($0.column)" }
            throw failure("The sort parameters disagree (\(spelled.joined(separator: ", "))): give one order.")
        }
        var result = DatabaseTableQuery(sort: schema.defaultSort)
        if let sort = sorts.first {
            // Ascending by the `INTEGER PRIMARY KEY` is the key order: the default variant's.
            result.sort = sort.column == schema.rowIDColumn && !sort.descending ? nil : sort.column
            result.descending = sort.descending
        }
        if group != nil && schema.isView {
            throw failure("\(quote(schema.name)) is a view, which is paged by position: group is not available on views.")
        }
        result.group = group
        result.labels = labels && !schema.linkedColumns.isEmpty
        result.filters = filters.sorted { ($0.key.column, $0.key.comparison.rawValue) < ($1.key.column, $1.key.comparison.rawValue) }
            .flatMap { key, values in values.sorted().map { DatabaseFilter(column: key.column, comparison: key.comparison, value: $0) } }
        if let search, !(rawSearch ? search.trimmingCharacters(in: .whitespacesAndNewlines) : DatabaseFullTextIndex.escapedQuery(search)).isEmpty {
            guard schema.dialect == .sqlite else {
                throw failure("_search is not supported on PostgreSQL tables: filter with col__contains=words instead.")
            }
            guard schema.fullTextTable != nil else {
                throw failure("\(quote(schema.name)) has no full-text index, so _search cannot be used. Make one with an FTS5 table whose content= names the table (sqlite-utils enable-fts does).")
            }
            result.search = search
            result.rawSearch = rawSearch
        }
        result.facets = Self.once(facets)
        result.dateFacets = Self.once(typedFacets[.date] ?? [])
        result.arrayFacets = Self.once(typedFacets[.array] ?? [])
        result.hiddenColumns = schema.columns.filter(hidden.contains)
        result.row = row
        return result
    }

    /// `names` without repeats, in their first order.
    private static func once(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// The columns of the facets of `kind`.
    func facetColumns(_ kind: DatabaseFacet.Kind) -> [String] {
        switch kind {
        case .column: facets
        case .date: dateFacets
        case .array: arrayFacets
        }
    }

    /// Makes `columns` the columns of the facets of `kind`.
    mutating func setFacetColumns(_ columns: [String], of kind: DatabaseFacet.Kind) {
        switch kind {
        case .column: facets = columns
        case .date: dateFacets = columns
        case .array: arrayFacets = columns
        }
    }

    /// A column and an operator: what a filter parameter's name says.
    private struct FilterKey: Hashable {
        var column: String
        var comparison: DatabaseFilter.Operator
    }

    /// The column and operator `name` means (see the type's description for the rule).
    private static func filterKey(_ name: String, schema: DatabaseTableSchema) throws(PageDefinition.VariantError) -> FilterKey {
        let split = name.range(of: "__", options: [.backwards, .literal]).map { (prefix: String(name[..<$0.lowerBound]), suffix: String(name[$0.upperBound...])) }
        if let split, let comparison = DatabaseFilter.Operator(rawValue: split.suffix), let column = schema.column(named: split.prefix) {
            if comparison.isSQLiteOnly, schema.dialect == .postgresql {
                throw failure("\(quote(split.suffix)) in \(quote(name)) is a filter of SQLite's; this table is PostgreSQL's. The operators here are \(DatabaseFilter.Operator.allCases.filter { !$0.isSQLiteOnly }.map(\.rawValue).joined(separator: ", ")).")
            }
            return FilterKey(column: column, comparison: comparison)
        }
        if let column = schema.column(named: name) {
            return FilterKey(column: column, comparison: .exact)
        }
        let operators = DatabaseFilter.Operator.allCases.map(\.rawValue).joined(separator: ", ")
        if let split, DatabaseFilter.Operator(rawValue: split.suffix) != nil {
            throw failure("\(quote(split.prefix)) is not a column of \(quote(schema.name)), so \(quote(name)) cannot filter it. Its columns are \(columnList(schema)).")
        }
        if let split, schema.column(named: split.prefix) != nil {
            throw failure("\(quote(split.suffix)) in \(quote(name)) is not a filter operator. The operators are \(operators).")
        }
        throw failure("\(quote(name)) is not a column of \(quote(schema.name)), so it cannot be used for a filter. Its columns are \(columnList(schema)); other parameters are sort, _sort, _sort_desc, group, _search, _facet, limit, _size, after and _next.")
    }

    /// The one spelling of a filter's value: `1` for the operators that ignore it, a list's
    /// canonical form for `in`/`notin` (at most ``DatabaseFilter/maxListCount`` values).
    private static func normalizedValue(_ value: String, for comparison: DatabaseFilter.Operator, parameter: String) throws(PageDefinition.VariantError) -> String {
        switch comparison {
        case _ where comparison.takesNoValue:
            return "1"
        case .in, .notin:
            guard let values = DatabaseFilter.listValues(value) else {
                throw failure("\(quote(parameter)) starts with [ but is not a JSON array of strings and numbers; give a JSON array, or values separated by commas.")
            }
            guard values.count <= DatabaseFilter.maxListCount else {
                throw failure("\(quote(parameter)) lists \(values.count) values; at most \(DatabaseFilter.maxListCount) are allowed.")
            }
            return DatabaseFilter.canonicalList(values)
        default:
            return value
        }
    }

    // MARK: Writing the variant

    /// The variant parameters: each meaning in one spelling, that ``parse(_:schema:)`` reads back
    /// as the same query; nothing for the default order.
    private func parameters(schema: DatabaseTableSchema) -> [String: String] {
        var chosen: [String: String] = [:]
        if let sort, sort != schema.defaultSort || descending {
            if descending {
                chosen[Self.sortParameter] = "-" + sort
            } else {
                // `sort=-x` would read as descending by `x`.
                chosen[sort.hasPrefix("-") ? Self.ascendingSortParameter : Self.sortParameter] = sort
            }
        }
        if let group { chosen[Self.groupParameter] = group }
        if labels { chosen[Self.labelsParameter] = "on" }
        if let row { chosen[Self.rowParameter] = row }
        // A second filter of one column and operator cannot share the first's name in a
        // dictionary: the rest go, as pairs, into one parameter of their own.
        var repeated: [[String]] = []
        for filter in filters {
            let name = Self.parameterName(filter.column, filter.comparison, schema: schema)
            if chosen[name] == nil {
                chosen[name] = filter.value
            } else {
                repeated.append([name, filter.value])
            }
        }
        if !repeated.isEmpty { chosen[Self.repeatedFiltersParameter] = Self.json(repeated) }
        if let search {
            chosen[Self.searchParameter] = search
            if rawSearch { chosen[Self.searchModeParameter] = "raw" }
        }
        if hiddenColumns.count == 1 {
            chosen[Self.hiddenColumnParameter] = hiddenColumns[0]
        } else if hiddenColumns.count > 1 {
            chosen[Self.hiddenColumnListParameter] = Self.facetList(hiddenColumns)
        }
        for kind in DatabaseFacet.Kind.allCases {
            let columns = facetColumns(kind)
            if columns.count == 1 {
                chosen[kind.parameter] = columns[0]
            } else if columns.count > 1 {
                chosen[kind == .column ? Self.facetListParameter : kind.parameter + "s"] = Self.facetList(columns)
            }
        }
        return chosen
    }

    /// `col` for an exact filter when that name reads back as one, else `col__op`.
    private static func parameterName(_ column: String, _ comparison: DatabaseFilter.Operator, schema: DatabaseTableSchema) -> String {
        if comparison == .exact, !isReserved(column), (try? filterKey(column, schema: schema)) == FilterKey(column: column, comparison: .exact) {
            return column
        }
        return column + "__" + comparison.rawValue
    }

    /// Names that are not filters when given alone.
    private static func isReserved(_ name: String) -> Bool {
        routeParameters.contains(name) || name == sortParameter || name == groupParameter || (name.hasPrefix("_") && !name.contains("__"))
    }

    /// The filters after the first of one column and operator (`n__not=1&n__not=2`), as a
    /// variant's own links carry them: a JSON array of `[name, value]` pairs.
    static let repeatedFiltersParameter = "_and"

    /// The pairs of a ``repeatedFiltersParameter`` value; nil when it is not such an array.
    private static func repeatedFilters(_ value: String) -> [(name: String, value: String)]? {
        guard let pairs = try? JSONDecoder().decode([[String]].self, from: Data(value.utf8)),
              pairs.allSatisfy({ $0.count == 2 && !$0[0].hasPrefix("_") || $0.count == 2 && $0[0].contains("__") }) else { return nil }
        return pairs.map { (name: $0[0], value: $0[1]) }
    }

    private static func json(_ pairs: [[String]]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(pairs)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    static func facetList(_ names: [String]) -> String {
        names.map { name in
            var escaped = String.UnicodeScalarView()
            for scalar in name.unicodeScalars {
                if scalar == "," || scalar == "\\" { escaped.append("\\") }
                escaped.append(scalar)
            }
            return String(escaped)
        }.joined(separator: ",")
    }

    /// The names ``facetList(_:)`` joined; nil when a backslash ends the text.
    static func facetNames(_ list: String) -> [String]? {
        var names: [String] = []
        var current = String.UnicodeScalarView()
        var escaping = false
        for scalar in list.unicodeScalars {
            if escaping {
                current.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == "," {
                names.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        guard !escaping else { return nil }
        names.append(String(current))
        return names
    }

    // MARK: Messages

    private static func known(_ name: String, for use: String, in schema: DatabaseTableSchema) throws(PageDefinition.VariantError) -> String {
        guard let column = schema.column(named: name) else {
            throw failure("\(quote(name)) is not a column of \(quote(schema.name)), so it cannot be used for \(use). Its columns are \(columnList(schema)).")
        }
        return column
    }

    /// `name` in the schema's spelling when the page may leave it out: a column, not the key's.
    private static func hideable(_ name: String, in schema: DatabaseTableSchema) throws(PageDefinition.VariantError) -> String {
        let column = try known(name, for: "_nocol", in: schema)
        guard !schema.primaryKeyColumns.contains(column) else {
            throw failure("\(quote(column)) is the key of \(quote(schema.name)), which names each row, so _nocol cannot hide it.")
        }
        return column
    }

    private static func columnList(_ schema: DatabaseTableSchema) -> String {
        schema.columns.map(quote).joined(separator: ", ")
    }

    private static func quote(_ name: String) -> String { "\u{201C}\(name)\u{201D}" }

    private static func failure(_ message: String) -> PageDefinition.VariantError {
        PageDefinition.VariantError(message: message)
    }
}
