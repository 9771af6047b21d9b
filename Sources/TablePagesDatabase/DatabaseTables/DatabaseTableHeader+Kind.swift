import TableKit

extension DatabaseTableHeader {
    /// Writes a ``DatabaseTableHeader`` cell's HTML from its content: the table's description
    /// (``tableDescription``, right under the page's title), the row count and conditions, the search
    /// form (for a table with an FTS5 index), the filter form, the active filters, the hidden
    /// columns, the suggested facets, the facets, the export links, and last, right above the
    /// rows, the column headers, each with its column menu. Every text is escaped for
    /// HTML, every link is the content's (percent-encoded) and escaped as an attribute.
    ///
    /// The column headers are an ARIA table of one row (`role="columnheader"` with `aria-sort` on
    /// the sorted column); `Public/table-pages.css` lays them out on the same grid as the
    /// ``DatabaseRecordCell`` rows under them.
    static let kind = CellKind(reuseIdentifier: reuseIdentifier) { content, out in
        let fields = Dictionary(content.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let parameters = (fields[Field.parameters]?.json?.elements ?? []).compactMap { parameter in
            parameter[Field.name]?.text.flatMap { name in parameter[Field.value]?.text.map { (name: name, value: $0) } }
        }
        let columns = fields[Field.columns]?.json?.elements ?? []
        out.append("<div class=\"tk-db-header\">")
        if let description = fields[Field.tableDescription] {
            out.append("<p class=\"tk-db-description\">")
            out.appendEscapedHTML(description.value)
            out.append("</p>")
        }
        out.append("<p class=\"tk-db-count\">")
        out.appendEscapedHTML(content.title ?? "")
        out.append("</p>")
        if let search = fields[Field.search] {
            out.append("<form class=\"tk-db-search\" method=\"get\" role=\"search\"><input type=\"search\" name=\"")
            out.appendEscapedHTML(DatasetteQuery.search)
            out.append("\" aria-label=\"Search the rows\" placeholder=\"Search\" value=\"")
            out.appendEscapedHTML(search.value)
            out.append("\">")
            appendHiddenInputs(parameters.filter { $0.name != DatasetteQuery.search }, into: &out)
            out.append("<button type=\"submit\">Search</button></form>")
        }
        appendFilterForm(columns: columns, parameters: parameters, into: &out)
        let facets = fields[Field.facets]?.json?.elements ?? []
        appendFacetForm(columns: columns, facets: facets, parameters: parameters, into: &out)
        appendActiveFilters(fields[Field.filters]?.json?.elements ?? [], into: &out)
        appendHiddenColumns(columns, into: &out)
        appendSuggestedFacets(fields[Field.suggestedFacets]?.json?.elements ?? [], into: &out)
        appendFacets(facets, into: &out)
        if let exports = fields[Field.exports]?.json {
            out.append("<p class=\"tk-db-exports\">Download these rows: ")
            appendLink(exports[Field.csv]?.text, text: "CSV", into: &out)
            out.append(" \u{00B7} ")
            appendLink(exports[Field.ndjson]?.text, text: "NDJSON", into: &out)
            out.append("</p>")
        }
        if let sql = fields[Field.editableSQL] {
            out.append("<p class=\"tk-db-sql\">")
            appendLink(sql.value, text: "View and edit SQL", into: &out)
            out.append("</p>")
        }
        appendColumnHeaders(columns, into: &out)
        out.append("</div>")
    }

    /// `<form>` with a column list, an operator list, a value, and the page's parameters hidden.
    private static func appendFilterForm(columns: [JSONValue], parameters: [(name: String, value: String)], into out: inout OutputBuffer) {
        // `data-variant-form`: a refused query's message goes right before this form (TablePages' PageDocument).
        out.append("<form class=\"tk-db-filter\" method=\"get\" aria-label=\"Add a filter\" data-variant-form><select name=\"")
        out.appendEscapedHTML(DatabaseFilterForm.columnField)
        out.append("\" aria-label=\"Column\">")
        for column in columns {
            guard let name = column[Field.name]?.text else { continue }
            out.append("<option value=\"")
            out.appendEscapedHTML(name)
            out.append("\">")
            out.appendEscapedHTML(name)
            out.append("</option>")
        }
        out.append("</select><select name=\"")
        out.appendEscapedHTML(DatabaseFilterForm.operatorField)
        out.append("\" aria-label=\"Comparison\">")
        for comparison in DatabaseFilter.Operator.allCases {
            out.append("<option value=\"")
            out.appendEscapedHTML(comparison.rawValue)
            out.append("\">")
            out.appendEscapedHTML(label(comparison))
            out.append("</option>")
        }
        out.append("</select><input type=\"text\" name=\"")
        out.appendEscapedHTML(DatabaseFilterForm.valueField)
        out.append("\" aria-label=\"Value\" placeholder=\"value\">")
        appendHiddenInputs(parameters, into: &out)
        out.append("<button type=\"submit\">Filter</button></form>")
    }

    /// `<form>` that adds a facet (`_facet`): a list of the columns not faceted yet, and the page's
    /// parameters hidden (its facets among them, so they stay). None when every column is faceted.
    private static func appendFacetForm(columns: [JSONValue], facets: [JSONValue], parameters: [(name: String, value: String)], into out: inout OutputBuffer) {
        let faceted = Set(facets.filter { Self.facetKind($0) == .column }.compactMap { $0[Field.column]?.text })
        let names = columns.compactMap { $0[Field.name]?.text }.filter { !faceted.contains($0) }
        guard !names.isEmpty else { return }
        out.append("<form class=\"tk-db-facet-add\" method=\"get\" aria-label=\"Count the values of a column\"><select name=\"")
        out.appendEscapedHTML(DatasetteQuery.facet)
        out.append("\" aria-label=\"Column to count\">")
        for name in names {
            out.append("<option value=\"")
            out.appendEscapedHTML(name)
            out.append("\">")
            out.appendEscapedHTML(name)
            out.append("</option>")
        }
        out.append("</select>")
        appendHiddenInputs(parameters, into: &out)
        out.append("<button type=\"submit\">Count values</button></form>")
    }

    /// Each active filter in words, with a link that removes it.
    private static func appendActiveFilters(_ filters: [JSONValue], into out: inout OutputBuffer) {
        guard !filters.isEmpty else { return }
        out.append("<ul class=\"tk-db-filters\" aria-label=\"Active filters\">")
        for filter in filters {
            let description = filter[Field.description]?.text ?? ""
            out.append("<li><span>")
            out.appendEscapedHTML(description)
            out.append("</span> <a class=\"tk-db-remove\" href=\"")
            out.appendEscapedHTML(filter[Field.href]?.text ?? "")
            out.append("\" aria-label=\"Remove the filter ")
            out.appendEscapedHTML(description)
            out.append("\">\u{2715}</a></li>")
        }
        out.append("</ul>")
    }

    /// The columns the page hides, each a link that shows it again.
    private static func appendHiddenColumns(_ columns: [JSONValue], into out: inout OutputBuffer) {
        let hidden = columns.filter { $0[Field.hidden] == .bool(true) }
        guard !hidden.isEmpty else { return }
        out.append("<p class=\"tk-db-hidden\">Hidden columns: ")
        for (position, column) in hidden.enumerated() {
            let name = column[Field.name]?.text ?? ""
            if position > 0 { out.append(", ") }
            out.append("<a href=\"")
            out.appendEscapedHTML(column[Field.href]?.text ?? "")
            out.append("\" title=\"Show this column\">")
            out.appendEscapedHTML(name)
            out.append("</a>")
        }
        out.append("</p>")
    }

    /// A facet's or a suggestion's name as Datasette shows it: its column, with its kind after it
    /// unless it counts the column's values (`ordered_at (date)`).
    private static func facetTitle(_ facet: JSONValue) -> String {
        let column = facet[Field.column]?.text ?? ""
        let kind = facetKind(facet)
        return kind == .column ? column : "\(column) (\(kind.rawValue))"
    }

    /// What a facet or a suggestion of the header's JSON counts.
    private static func facetKind(_ facet: JSONValue) -> DatabaseFacet.Kind {
        facet[Field.type]?.text.flatMap(DatabaseFacet.Kind.init(rawValue:)) ?? .column
    }

    /// "Suggested facets: a, b, c (date)", each a link that adds its facet.
    private static func appendSuggestedFacets(_ suggestions: [JSONValue], into out: inout OutputBuffer) {
        guard !suggestions.isEmpty else { return }
        out.append("<p class=\"tk-db-suggested\">Suggested facets: ")
        for (position, suggestion) in suggestions.enumerated() {
            if position > 0 { out.append(", ") }
            out.append("<a href=\"")
            out.appendEscapedHTML(suggestion[Field.href]?.text ?? "")
            out.append("\">")
            out.appendEscapedHTML(facetTitle(suggestion))
            out.append("</a>")
        }
        out.append("</p>")
    }

    /// A list per facet: its values, most frequent first, each a link that adds (or, when
    /// chosen, removes) its filter, with its count.
    private static func appendFacets(_ facets: [JSONValue], into out: inout OutputBuffer) {
        guard !facets.isEmpty else { return }
        out.append("<div class=\"tk-db-facets\">")
        for facet in facets {
            let column = facet[Field.column]?.text ?? ""
            let title = facetTitle(facet)
            out.append("<section class=\"tk-db-facet\" data-field=\"")
            out.appendEscapedHTML(column)
            out.append("\" data-type=\"")
            out.appendEscapedHTML(facetKind(facet).rawValue)
            out.append("\"><h2>")
            out.appendEscapedHTML(title)
            out.append(" <a class=\"tk-db-remove\" href=\"")
            out.appendEscapedHTML(facet[Field.href]?.text ?? "")
            out.append("\" aria-label=\"Remove the facet ")
            out.appendEscapedHTML(title)
            out.append("\">\u{2715}</a></h2><ul>")
            for value in facet[Field.values]?.elements ?? [] {
                let label = value[Field.label]?.text ?? ""
                let selected = value[Field.selected] == .bool(true)
                out.append(selected ? "<li class=\"tk-db-selected\">" : "<li>")
                if let href = value[Field.href]?.text {
                    out.append("<a href=\"")
                    out.appendEscapedHTML(href)
                    out.append(selected ? "\" aria-current=\"true\" title=\"Remove this filter\">" : "\">")
                    out.appendEscapedHTML(label)
                    out.append("</a>")
                } else {
                    out.append("<span>")
                    out.appendEscapedHTML(label)
                    out.append("</span>")
                }
                out.append(" <span class=\"tk-db-facet-count\">")
                if case .integer(let count)? = value[Field.count] {
                    out.appendEscapedHTML(grouped(Int(count)))
                }
                out.append("</span></li>")
            }
            if facet[Field.truncated] == .bool(true) {
                out.append("<li class=\"tk-db-more\">\u{2026}</li>")
            }
            out.append("</ul></section>")
        }
        out.append("</div>")
    }

    /// The column names as sort links, one ARIA table row lined up with the record rows (the
    /// hidden columns left out), each followed by its menu (``appendMenu(_:name:into:)``).
    private static func appendColumnHeaders(_ columns: [JSONValue], into out: inout OutputBuffer) {
        out.append("<div class=\"tk-db-columns\" role=\"table\" aria-label=\"Columns; each sorts the rows\"><div class=\"tk-db-columns-row\" role=\"row\">")
        for column in columns where column[Field.hidden] != .bool(true) {
            let name = column[Field.name]?.text ?? ""
            let sort = column[Field.sort]?.text
            // A numeric column's name sits over its numbers, on the right (Public/table-pages.css).
            out.append(column[Field.numeric] == .bool(true) ? "<span class=\"tk-db-column tk-db-numeric\" role=\"columnheader\" data-field=\"" : "<span class=\"tk-db-column\" role=\"columnheader\" data-field=\"")
            out.appendEscapedHTML(name)
            switch sort {
            case "ascending": out.append("\" aria-sort=\"ascending")
            case "descending": out.append("\" aria-sort=\"descending")
            default: break
            }
            out.append("\"><a href=\"")
            out.appendEscapedHTML(column[Field.href]?.text ?? "")
            out.append(sort == "ascending" ? "\" title=\"Sort descending\">" : "\" title=\"Sort ascending\">")
            out.appendEscapedHTML(name)
            out.append("</a>")
            switch sort {
            case "ascending": out.append("<span class=\"tk-db-arrow\" aria-hidden=\"true\"> \u{25B2}</span>")
            case "descending": out.append("<span class=\"tk-db-arrow\" aria-hidden=\"true\"> \u{25BC}</span>")
            default: break
            }
            appendMenu(column[Field.menu], name: name, into: &out)
            out.append("</span>")
        }
        out.append("</div></div>")
    }

    /// A column's menu: a `<details>` whose `<summary>` opens a list of plain links, so it works
    /// without script and from the keyboard (the page script closes it on Escape and on a click
    /// elsewhere).
    private static func appendMenu(_ menu: JSONValue?, name: String, into out: inout OutputBuffer) {
        guard let menu else { return }
        out.append("<details class=\"tk-db-menu\"><summary title=\"Column menu\" aria-label=\"")
        out.appendEscapedHTML(name)
        out.append(": column menu\"><span aria-hidden=\"true\">\u{22EE}</span></summary><ul>")
        let items: [(String, StaticString)] = [
            (Field.ascending, "Sort ascending"), (Field.descending, "Sort descending"), (Field.facet, "Facet by this"),
            (Field.hide, "Hide this column"), (Field.notNull, "Show only not-null"),
        ]
        for (field, text) in items {
            guard let href = menu[field]?.text else { continue }
            out.append("<li>")
            appendLink(href, text: text, into: &out)
            out.append("</li>")
        }
        out.append("</ul></details>")
    }

    private static func appendHiddenInputs(_ parameters: [(name: String, value: String)], into out: inout OutputBuffer) {
        for parameter in parameters {
            out.append("<input type=\"hidden\" name=\"")
            out.appendEscapedHTML(parameter.name)
            out.append("\" value=\"")
            out.appendEscapedHTML(parameter.value)
            out.append("\">")
        }
    }

    private static func appendLink(_ href: String?, text: StaticString, into out: inout OutputBuffer) {
        guard let href else { return }
        out.append("<a href=\"")
        out.appendEscapedHTML(href)
        out.append("\">")
        out.append(text)
        out.append("</a>")
    }
}

extension JSONValue {
    /// The member named `name` of an object; nil for anything else.
    fileprivate subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// The string's text; nil for anything else.
    fileprivate var text: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The array's elements; nil for anything else.
    fileprivate var elements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}
