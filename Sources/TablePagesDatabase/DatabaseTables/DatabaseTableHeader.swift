import TableStore
import TableKit

/// What a database page shows above its rows (``DatabaseTableSource``'s
/// `headerViewForTable()`): how many rows the page has and under which conditions, the column
/// headers that sort, the filter and search forms, the facets and the export links.
///
/// Every link is built from the page's ``DatabaseTableQuery`` in Datasette's spelling
/// (``DatasetteQuery``) and is relative to the page's path (`?_sort=name&…`), so it keeps the
/// page and changes one thing: a column header sorts by its column ascending, or descending when
/// the page is already sorted by it ascending; a facet value adds `column__exact=value`
/// (`column__isnull=1` for NULL), or removes that filter when the page has it; each active
/// filter has a link that removes it. The forms are GET forms that work without JavaScript:
/// hidden inputs carry the page's other parameters, and the filter form's
/// `_filter_column`/`_filter_op`/`_filter_value` become a filter (``DatabaseFilterForm``).
///
/// The cell's content is data, so JSON carries it as the page's `headerView` (its `title` is
/// the description, e.g. "12 rows where category = books"), and the kind (``kind``) writes the
/// HTML from it. Its `fields`:
/// - `tableDescription`: what the table holds, when a configuration file says (text, escaped in HTML);
/// - `rowCount`: the rows of the page, every section's total;
/// - `columns`: `[{"name", "sort": "ascending" | "descending" | null, "href", "numeric", "hidden", "menu"}]`
///   (`numeric`: the column is declared to hold numbers, so its header lines up with them, on the
///   right; `hidden`: the page leaves it out (`_nocol`), and `href` then shows it again; `menu`:
///   the column menu's links, `{"ascending", "descending", "facet"?, "hide"?, "notNull"?}`, each
///   left out where it would change nothing or is not allowed: hiding a key column);
/// - `filters`: `[{"column", "operator", "value", "description", "href"}]` (`href` removes it);
/// - `search`: the words searched (`""` for none), only for a table with an FTS5 index;
/// - `facets`: `[{"column", "type", "truncated", "href", "values": [{"value", "label", "count", "selected", "href"}]}]`
///   (`type` is `column`, `date` or `array`; a facet's `href` removes the facet, a value's adds
///   or removes its filter — `column__exact`, `column__date`, `column__arraycontains` — and a
///   blob's value has no `href`; a value of a column with a foreign key has the referenced row's
///   label as its `label`);
/// - `suggestedFacets`: `[{"column", "type", "href"}]`, the facets worth adding
///   (``DatabaseTableReader/suggestedFacets(rowCount:columns:size:budget:)``), each `href` adding its facet;
/// - `exports`: `{"csv", "ndjson"}`, the page's rows as files, with its filters, search and sort;
/// - `parameters`: `[{"name", "value"}]`, the page's own query parameters, which the forms keep.
struct DatabaseTableHeader {
    /// The table.
    let schema: DatabaseTableSchema
    /// The page's variant.
    let query: DatabaseTableQuery
    /// The rows of the page (with its filters and search), every section's together.
    let rowCount: Int
    /// The value counts of the page's facets, in the order asked.
    let facets: [DatabaseFacet]
    /// The facets suggested, in Datasette's order.
    var suggestedFacets: [DatabaseFacet.Suggestion] = []
    /// What the table holds, in the operator's words (a configuration file's `description`),
    /// shown under the page's title.
    var tableDescription: String?
    /// The SQL page's URL with the page's rows as SQL ("View and edit SQL"), nil when the SQL page is off.
    var editableSQL: String?

    /// The header's cell kind's reuse identifier.
    static let reuseIdentifier = "database-header"

    /// The header as a cell of ``kind``.
    var cell: TableCell {
        var fields = tableDescription.map { [CellField(name: Field.tableDescription, value: $0)] } ?? []
        fields += [
            CellField(name: Field.rowCount, value: Self.grouped(rowCount), json: .integer(Int64(rowCount))),
            CellField(name: Field.columns, value: schema.columns.joined(separator: ", "), json: .array(schema.columns.map(column))),
            CellField(name: Field.filters, value: query.filters.map(Self.description).joined(separator: " and "), json: .array(query.filters.map(filter))),
        ]
        if schema.fullTextTable != nil {
            fields.append(CellField(name: Field.search, value: query.search ?? ""))
        }
        if !suggestedFacets.isEmpty {
            fields.append(CellField(name: Field.suggestedFacets, value: suggestedFacets.map(\.column).joined(separator: ", "), json: .array(suggestedFacets.map { suggestion in
                var faceted = query
                faceted.setFacetColumns(faceted.facetColumns(suggestion.kind) + [suggestion.column], of: suggestion.kind)
                return .object([
                    JSONProperty(name: Field.column, value: .string(suggestion.column)),
                    JSONProperty(name: Field.type, value: .string(suggestion.kind.rawValue)),
                    JSONProperty(name: Field.href, value: .string(DatasetteQuery.string(faceted))),
                ])
            })))
        }
        if !facets.isEmpty {
            fields.append(CellField(name: Field.facets, value: facets.map(\.column).joined(separator: ", "), json: .array(facets.map(facet))))
        }
        let exports = JSONValue.object([
            JSONProperty(name: Field.csv, value: .string(exportPath(extension: "csv"))),
            JSONProperty(name: Field.ndjson, value: .string(exportPath(extension: "ndjson"))),
        ])
        fields.append(CellField(name: Field.exports, value: "CSV, NDJSON", json: exports))
        if let editableSQL {
            fields.append(CellField(name: Field.editableSQL, value: editableSQL))
        }
        let parameters = DatasetteQuery.parameters(of: query)
        fields.append(CellField(name: Field.parameters, value: DatasetteQuery.encoded(parameters), json: .array(parameters.map {
            .object([JSONProperty(name: Field.name, value: .string($0.name)), JSONProperty(name: Field.value, value: .string($0.value))])
        })))
        return TableCell(reuseIdentifier: Self.reuseIdentifier, content: CellContent(title: description, fields: fields))
    }

    /// "1,000,000 rows", "12 rows where category = books and price > 10 sorted by name descending".
    var description: String {
        var text = Self.grouped(rowCount) + (rowCount == 1 ? " row" : " rows")
        var conditions = query.filters.map(Self.description)
        if let search = query.search {
            conditions.append("search matches \u{201C}\(search)\u{201D}")
        }
        if !conditions.isEmpty {
            text += " where " + conditions.joined(separator: " and ")
        }
        if let sort = query.sort, sort != schema.defaultSort || query.descending {
            text += " sorted by " + sort + (query.descending ? " descending" : "")
        }
        if let group = query.group {
            text += ", grouped by " + group
        }
        return text
    }

    // MARK: Parts

    /// The names of the content's fields and of their JSON members, which the kind reads back.
    enum Field {
        static let tableDescription = "tableDescription"
        static let rowCount = "rowCount"
        static let columns = "columns"
        static let filters = "filters"
        static let search = "search"
        static let facets = "facets"
        static let suggestedFacets = "suggestedFacets"
        static let hidden = "hidden"
        static let menu = "menu"
        static let ascending = "ascending"
        static let descending = "descending"
        static let facet = "facet"
        static let hide = "hide"
        static let notNull = "notNull"
        static let exports = "exports"
        static let editableSQL = "editableSQL"
        static let parameters = "parameters"
        static let name = "name"
        static let value = "value"
        static let sort = "sort"
        static let href = "href"
        static let numeric = "numeric"
        static let column = "column"
        static let `operator` = "operator"
        static let description = "description"
        static let truncated = "truncated"
        static let type = "type"
        static let values = "values"
        static let label = "label"
        static let count = "count"
        static let selected = "selected"
        static let csv = "csv"
        static let ndjson = "ndjson"
    }

    private func column(_ name: String) -> JSONValue {
        let current: String? = query.sort == name ? (query.descending ? "descending" : "ascending") : nil
        // Datasette's toggle: a second click on the ascending column sorts it descending.
        let next = query.sorted(by: name, descending: current == "ascending")
        let hidden = query.hiddenColumns.contains(name)
        var shown = query
        shown.hiddenColumns.removeAll { $0 == name }
        return .object([
            JSONProperty(name: Field.name, value: .string(name)),
            JSONProperty(name: Field.sort, value: current.map(JSONValue.string) ?? .null),
            JSONProperty(name: Field.href, value: .string(DatasetteQuery.string(hidden ? shown : next))),
            // A linked column shows labels, which line up on the left.
            JSONProperty(name: Field.numeric, value: .bool(schema.holdsNumbers(name) && !schema.linkedColumns.contains { $0.column == name })),
            JSONProperty(name: Field.hidden, value: .bool(hidden)),
            JSONProperty(name: Field.menu, value: menu(name)),
        ])
    }

    /// The column menu's links: each changes one thing of the page.
    private func menu(_ name: String) -> JSONValue {
        var links = [
            JSONProperty(name: Field.ascending, value: .string(DatasetteQuery.string(query.sorted(by: name, descending: false)))),
            JSONProperty(name: Field.descending, value: .string(DatasetteQuery.string(query.sorted(by: name, descending: true)))),
        ]
        if !query.facets.contains(name) {
            var faceted = query
            faceted.facets.append(name)
            links.append(JSONProperty(name: Field.facet, value: .string(DatasetteQuery.string(faceted))))
        }
        if !schema.primaryKeyColumns.contains(name) && !query.hiddenColumns.contains(name) {
            var hidden = query
            hidden.hiddenColumns = schema.columns.filter { $0 == name || query.hiddenColumns.contains($0) }
            links.append(JSONProperty(name: Field.hide, value: .string(DatasetteQuery.string(hidden))))
        }
        let notNull = DatabaseFilter(column: name, comparison: .notnull, value: "1")
        if !query.filters.contains(where: { Self.same($0, notNull) }) {
            links.append(JSONProperty(name: Field.notNull, value: .string(DatasetteQuery.string(query.adding(notNull)))))
        }
        return .object(links)
    }

    private func filter(_ filter: DatabaseFilter) -> JSONValue {
        .object([
            JSONProperty(name: Field.column, value: .string(filter.column)),
            JSONProperty(name: Field.operator, value: .string(filter.comparison.rawValue)),
            JSONProperty(name: Field.value, value: .string(filter.value)),
            JSONProperty(name: Field.description, value: .string(Self.description(filter))),
            JSONProperty(name: Field.href, value: .string(DatasetteQuery.string(query.removing(filter)))),
        ])
    }

    private func facet(_ facet: DatabaseFacet) -> JSONValue {
        var withoutFacet = query
        withoutFacet.setFacetColumns(query.facetColumns(facet.kind).filter { $0 != facet.column }, of: facet.kind)
        return .object([
            JSONProperty(name: Field.column, value: .string(facet.column)),
            JSONProperty(name: Field.type, value: .string(facet.kind.rawValue)),
            JSONProperty(name: Field.truncated, value: .bool(facet.isTruncated)),
            JSONProperty(name: Field.href, value: .string(DatasetteQuery.string(withoutFacet))),
            JSONProperty(name: Field.values, value: .array(facet.values.map { facetValue($0, of: facet) })),
        ])
    }

    private func facetValue(_ counted: DatabaseFacet.Value, of facet: DatabaseFacet) -> JSONValue {
        let shown = DatabaseRecordCell.field(facet.column, counted.value)
        // A referenced row's label reads better than its key ("Giant Lamp #17", not 17).
        let label = counted.label.flatMap { $0 } ?? shown.value
        var members = [
            JSONProperty(name: Field.value, value: shown.json ?? .string(shown.value)),
            JSONProperty(name: Field.label, value: .string(label)),
            JSONProperty(name: Field.count, value: .integer(Int64(counted.count))),
        ]
        if facet.kind == .column {
            if let filter = Self.filter(column: facet.column, matching: counted.value) {
                let selected = query.filters.contains { Self.same($0, filter) }
                members.append(JSONProperty(name: Field.selected, value: .bool(selected)))
                let next = selected ? query.removing(filter) : query.adding(filter)
                members.append(JSONProperty(name: Field.href, value: .string(DatasetteQuery.string(next))))
            } else {
                members.append(JSONProperty(name: Field.selected, value: .bool(false)))
            }
        } else if let text = Self.filterText(of: counted.value) {
            // `column__date` and `column__arraycontains` filters, Datasette's, as its facets link them.
            let selected = query.filters.contains { $0.column == facet.column && $0.comparison.rawValue == facet.kind.filterOperator && $0.value == text }
            members.append(JSONProperty(name: Field.selected, value: .bool(selected)))
            var next = query
            if selected { next.filters.removeAll { $0.column == facet.column && $0.comparison.rawValue == facet.kind.filterOperator && $0.value == text } }
            var parameters = DatasetteQuery.parameters(of: next)
            if !selected { parameters.append(DatasetteQuery.Parameter(name: facet.column + "__" + facet.kind.filterOperator, value: text)) }
            members.append(JSONProperty(name: Field.href, value: .string("?" + DatasetteQuery.encoded(parameters))))
        } else {
            members.append(JSONProperty(name: Field.selected, value: .bool(false)))
        }
        return .object(members)
    }

    /// `/pages/{table}.csv?…`: the page's rows as a file, with its filters, search and sort.
    private func exportPath(extension fileExtension: String) -> String {
        var exported = query
        for kind in DatabaseFacet.Kind.allCases { exported.setFacetColumns([], of: kind) }
        exported.group = nil
        // A file has every column: hiding one is for reading the page.
        exported.hiddenColumns = []
        let parameters = DatasetteQuery.encoded(DatasetteQuery.parameters(of: exported))
        return PageContract.pagePath(named: DatabaseTablePages.pageName(ofTable: schema.name)) + "." + fileExtension + (parameters.isEmpty ? "" : "?" + parameters)
    }

    /// The filter that keeps the rows whose `column` is `value`: `isnull` for NULL, `exact` with
    /// the value's text otherwise; nil for a blob, which no query text matches.
    static func filter(column: String, matching value: SQLValue) -> DatabaseFilter? {
        switch value {
        case .null: DatabaseFilter(column: column, comparison: .isnull, value: "1")
        case .blob: nil
        default: filterText(of: value).map { DatabaseFilter(column: column, comparison: .exact, value: $0) }
        }
    }

    /// A value as a filter's query text gives it; nil for NULL and blobs, which none does.
    static func filterText(of value: SQLValue) -> String? {
        switch value {
        case .null, .blob: nil
        case .integer(let integer): String(integer)
        case .real(let double): String(double)
        case .text(let text): text
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    /// Whether two filters keep the same rows by their form: the same column, comparison and
    /// value (any value for `isnull` and `notnull`, which take none).
    static func same(_ one: DatabaseFilter, _ other: DatabaseFilter) -> Bool {
        one.column == other.column && one.comparison == other.comparison
            && (one.value == other.value || one.comparison.takesNoValue)
    }

    /// A filter in words, as Datasette writes it: `category = books`, `name contains "an"`,
    /// `price ≥ 10`, `note is null`.
    static func description(_ filter: DatabaseFilter) -> String {
        let column = filter.column
        let value = filter.value
        return switch filter.comparison {
        case .exact: "\(column) = \(value)"
        case .not: "\(column) \u{2260} \(value)"
        case .contains: "\(column) contains \u{201C}\(value)\u{201D}"
        case .startswith: "\(column) starts with \u{201C}\(value)\u{201D}"
        case .endswith: "\(column) ends with \u{201C}\(value)\u{201D}"
        case .gt: "\(column) > \(value)"
        case .gte: "\(column) \u{2265} \(value)"
        case .lt: "\(column) < \(value)"
        case .lte: "\(column) \u{2264} \(value)"
        case .in: "\(column) in \(value)"
        case .notin: "\(column) not in \(value)"
        case .isnull: "\(column) is null"
        case .notnull: "\(column) is not null"
        case .isblank: "\(column) is blank"
        case .notblank: "\(column) is not blank"
        case .like: "\(column) like \u{201C}\(value)\u{201D}"
        case .notlike: "\(column) not like \u{201C}\(value)\u{201D}"
        case .glob: "\(column) glob \u{201C}\(value)\u{201D}"
        case .date: "\(column) is on date \(value)"
        case .arraycontains: "\(column) array contains \u{201C}\(value)\u{201D}"
        case .arraynotcontains: "\(column) array does not contain \u{201C}\(value)\u{201D}"
        }
    }

    /// How the filter form's operator list names a comparison.
    static func label(_ comparison: DatabaseFilter.Operator) -> String {
        switch comparison {
        case .exact: "="
        case .not: "\u{2260}"
        case .contains: "contains"
        case .startswith: "starts with"
        case .endswith: "ends with"
        case .gt: ">"
        case .gte: "\u{2265}"
        case .lt: "<"
        case .lte: "\u{2264}"
        case .in: "in (a,b,\u{2026})"
        case .notin: "not in (a,b,\u{2026})"
        case .isnull: "is null"
        case .notnull: "is not null"
        case .isblank: "is blank"
        case .notblank: "is not blank"
        case .like: "like"
        case .notlike: "not like"
        case .glob: "glob"
        case .date: "date"
        case .arraycontains: "array contains"
        case .arraynotcontains: "array does not contain"
        }
    }

    /// `n` with a comma between each group of three digits: `1,000,000`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var text = ""
        for (position, digit) in digits.enumerated() {
            if position > 0 && (digits.count - position) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (n < 0 ? "-" : "") + text
    }
}

extension DatabaseTableQuery {
    /// This query ordered by `column` (descending when `descending`), the rest kept.
    fileprivate func sorted(by column: String, descending: Bool) -> DatabaseTableQuery {
        var query = self
        query.sort = column
        query.descending = descending
        return query
    }

    /// This query with `filter` after its filters, unless it has it already.
    fileprivate func adding(_ filter: DatabaseFilter) -> DatabaseTableQuery {
        var query = self
        if !query.filters.contains(where: { DatabaseTableHeader.same($0, filter) }) { query.filters.append(filter) }
        return query
    }

    /// This query without `filter`.
    fileprivate func removing(_ filter: DatabaseFilter) -> DatabaseTableQuery {
        var query = self
        query.filters.removeAll { DatabaseTableHeader.same($0, filter) }
        return query
    }
}
