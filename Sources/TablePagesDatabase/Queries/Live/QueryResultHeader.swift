import Escaping
import TableKit

/// The header of a live query's page: its description, its SQL, the parameters it runs with, its
/// row count, and a link to its form (to change the parameters, or the SQL page's to edit the SQL).
enum QueryResultHeader {
    static let reuseIdentifier = "query-header"

    static func cell(
        query: CannedQuery, parameters: [(name: String, value: String)], columns: [(name: String, numeric: Bool)], rowCount: Int, truncated: Bool,
        formURL: String, formTitle: String
    ) -> TableCell {
        var fields = [
            CellField(name: "columns", value: columns.map(\.name).joined(separator: ", "), json: .array(columns.map {
                .object([JSONProperty(name: "name", value: .string($0.name)), JSONProperty(name: "numeric", value: .bool($0.numeric))])
            })),
            CellField(name: "sql", value: query.sql),
            CellField(name: "form", value: formURL),
            CellField(name: "formTitle", value: formTitle),
            CellField(name: "rowCount", value: String(rowCount), json: .integer(Int64(rowCount))),
            CellField(name: "truncated", value: truncated ? "true" : "false", json: .bool(truncated)),
        ]
        if let description = query.description { fields.append(CellField(name: "description", value: description)) }
        for parameter in parameters { fields.append(CellField(name: "parameter", value: parameter.name + "=" + parameter.value)) }
        let count = (rowCount == 1 ? "1 row" : "\(rowCount) rows") + (truncated ? " (more were left out: the row or size limit)" : "")
        return TableCell(reuseIdentifier: reuseIdentifier, content: CellContent(title: count, fields: fields))
    }

    static let kind = CellKind(reuseIdentifier: reuseIdentifier) { content, out in
        let fields = content.fields
        func value(_ name: String) -> String { fields.first { $0.name == name }?.value ?? "" }
        out.append("<div class=\"tp-sql-live\">")
        if let description = fields.first(where: { $0.name == "description" }) {
            out.append("<p class=\"tp-sql-description\">")
            out.appendEscapedHTML(description.value)
            out.append("</p>")
        }
        out.append("<pre class=\"tp-sql-code\"><code>")
        out.appendEscapedHTML(value("sql"))
        out.append("</code></pre><p class=\"tp-sql-summary\" role=\"status\">")
        out.appendEscapedHTML(content.title ?? "")
        for parameter in fields where parameter.name == "parameter" {
            out.append(" · ")
            out.appendEscapedHTML(parameter.value)
        }
        out.append(" · <a href=\"")
        out.appendEscapedHTML(value("form"))
        out.append("\">")
        out.appendEscapedHTML(value("formTitle"))
        out.append("</a></p>")
        // The column names over the rows, lined up with them as a table page's (the page script
        // sizes the columns from `.tk-db-columns-row`); a phone shows each value's name instead.
        out.append("<div class=\"tk-db-columns\" role=\"table\" aria-label=\"Columns\"><div class=\"tk-db-columns-row\" role=\"row\">")
        defer { out.append("</div></div></div>") }
        guard case .array(let columns)? = fields.first(where: { $0.name == "columns" })?.json else { return }
        for case .object(let properties) in columns {
            guard case .string(let name)? = properties.first(where: { $0.name == "name" })?.value else { continue }
            let numeric = properties.first(where: { $0.name == "numeric" })?.value == .bool(true)
            out.append(numeric ? "<span class=\"tk-db-column tk-db-numeric\" role=\"columnheader\" data-field=\"" : "<span class=\"tk-db-column\" role=\"columnheader\" data-field=\"")
            out.appendEscapedHTML(name)
            out.append("\">")
            out.appendEscapedHTML(name)
            out.append("</span>")
        }
    }
}
