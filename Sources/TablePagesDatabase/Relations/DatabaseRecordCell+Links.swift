import TableStore
import TableKit

/// A record cell's links to other tables: a value of a linked column (``DatabaseLinkedColumn``)
/// shows the label of the row it refers to and links to that row; a row's own page lists the
/// rows of other tables that refer to it (``DatabaseIncomingLink``).
///
/// A labelled field keeps the value in its JSON and shows the label: `value` is the label's text,
/// `json` the value itself (`1599`), or with `_labels=on` Datasette's expansion,
/// `{"value": 1599, "label": "Ida Meyer"}`. A field without a label (no label column, no such
/// row) is left as it is.
extension DatabaseRecordCell {
    /// `field`, of a linked column whose referenced row was found, showing `label` (cut as the
    /// extent cuts values); a nil label (NULL in the row) leaves the text as it is, and JSON
    /// expanded says `"label": null`, as Datasette does.
    static func labelled(_ field: CellField, label: String?, expanded: Bool, extent: Extent) -> CellField {
        let value = field.json ?? .string(field.value)
        let shown = label.map { self.field(field.name, SQLValue.text($0), extent: extent).value }
        guard expanded else {
            return shown.map { CellField(name: field.name, value: $0, json: value) } ?? field
        }
        let json = JSONValue.object([JSONProperty(name: "value", value: value), JSONProperty(name: "label", value: shown.map(JSONValue.string) ?? .null)])
        return CellField(name: field.name, value: shown ?? field.value, json: json)
    }

    /// The value a linked column's field holds and the label it shows, if any (see ``labelled(_:label:expanded:extent:)``).
    static func linkedParts(_ field: CellField) -> (value: SQLValue, label: String?) {
        if case .object(let members)? = field.json {
            let value = members.first { $0.name == "value" }?.value ?? .null
            let hasLabel = members.first { $0.name == "label" }?.value != .null
            return (sqlValue(value), hasLabel ? field.value : nil)
        }
        let value = sqlValue(field.json ?? .string(field.value))
        return (value, shownText(of: value) == field.value ? nil : field.value)
    }

    private static func sqlValue(_ json: JSONValue) -> SQLValue {
        switch json {
        case .integer(let integer): .integer(integer)
        case .number(let number): .real(number)
        case .string(let string): .text(string)
        case .null, .bool, .array, .object: .null
        }
    }

    private static func shownText(of value: SQLValue) -> String {
        field("", value).value
    }

    /// Writes the value of a linked column: the label linked to the referenced row, then the
    /// value itself; or without a label, the value linked. Returns false, writing nothing, for a
    /// value that refers to no row (NULL, a blob), which is then written as any other.
    static func appendLinked(_ field: CellField, link: DatabaseLinkedColumn, into out: inout OutputBuffer) -> Bool {
        let parts = linkedParts(field)
        guard let href = link.href(for: parts.value) else { return false }
        if let label = parts.label {
            appendLabelled(label, value: shownText(of: parts.value), href: href, table: link.table, into: &out)
        } else {
            out.append("<a class=\"tk-field-value tk-fk\" href=\"")
            out.appendEscapedHTML(href)
            out.append("\" title=\"Show this row of ")
            out.appendEscapedHTML(link.table)
            out.append("\">")
            out.appendEscapedHTML(field.value)
            out.append("</a>")
        }
        return true
    }

    /// `<span class="tk-field-value tk-fk"><a href="{href}" …><bdi>{label}</bdi></a> <bdi class="tk-fk-value">{value}</bdi></span>`:
    /// each isolated, so that a label ending in a right-to-left script ("Björk علي") does not pull
    /// the value after it into its run ("Björk 4274 علي").
    static func appendLabelled(_ label: String, value: String, href: String, table: String, into out: inout OutputBuffer) {
        out.append("<span class=\"tk-field-value tk-fk\"><a href=\"")
        out.appendEscapedHTML(href)
        out.append("\" title=\"Show this row of ")
        out.appendEscapedHTML(table)
        out.append("\"><bdi>")
        out.appendEscapedHTML(label)
        out.append("</bdi></a> <bdi class=\"tk-fk-value\">")
        out.appendEscapedHTML(value)
        out.append("</bdi></span>")
    }

    /// Writes the row page's "Links from other tables" line from the content's
    /// ``DatabaseIncomingLink/jsonMember``: for each referring column, "12 rows from customer_id in
    /// orders" linked to those rows. Nothing when the content has none.
    static func appendIncomingLinks(_ content: CellContent, into out: inout OutputBuffer) {
        guard case .array(let links)? = content.jsonProperties.first(where: { $0.name == DatabaseIncomingLink.jsonMember })?.value,
              !links.isEmpty else { return }
        out.append("<span class=\"tk-field tk-db-links\" role=\"cell\" data-field=\"")
        out.appendUnescaped(DatabaseIncomingLink.jsonMember)
        out.append("\"><span class=\"tk-field-name\">Links from other tables</span> <span class=\"tk-field-value\">")
        for (position, link) in links.enumerated() {
            guard case .object(let members) = link else { continue }
            func member(_ name: String) -> JSONValue? { members.first { $0.name == name }?.value }
            guard case .string(let table)? = member("table"), case .string(let column)? = member("column") else { continue }
            if position > 0 { out.append("<br>") }
            let counted: String
            if case .integer(let count)? = member("count") {
                counted = DatabaseTableHeader.grouped(Int(count)) + (count == 1 ? " row" : " rows")
            } else {
                counted = "Rows (too many to count in time)"
            }
            let href: String? = if case .string(let href)? = member("href") { href } else { nil }
            if let href {
                out.append("<a class=\"tk-db-link\" href=\"")
                out.appendEscapedHTML(href)
                out.append("\">")
            }
            // The names isolated, as a label beside a value is.
            out.appendEscapedHTML(counted)
            out.append(" from <bdi>")
            out.appendEscapedHTML(column)
            out.append("</bdi> in <bdi>")
            out.appendEscapedHTML(table)
            out.append("</bdi>")
            if href != nil { out.append("</a>") }
        }
        out.append("</span></span>")
    }
}
