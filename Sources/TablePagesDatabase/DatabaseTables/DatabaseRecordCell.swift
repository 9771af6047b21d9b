import Foundation
import TableStore
import TableKit

/// The cell of a database row: every column as a name and a value.
///
/// HTML shows each value formatted for reading: numbers as SQLite returns them (`12.5`, `42`),
/// NULL as a marked `NULL`, text as it is, a blob as its size. JSON carries the values themselves
/// in `fields`: numbers as numbers, NULL as `null`, text as a string, a blob as a base64 string.
///
/// Values are bounded in bytes, so that one huge value cannot make a page (or the live table that
/// holds its rows) huge: in a page, text longer than ``maxShownBytes`` is cut on a character
/// boundary to end with `…` (U+2026) within that bound, in HTML and JSON alike, and so is a
/// blob's base64. The
/// row's own URL (`/pages/{table}/rows/{id}`) shows every value whole up to
/// ``maxRowValueBytes``, and a blob's first bytes in hexadecimal.
enum DatabaseRecordCell {
    /// The cell kind's reuse identifier.
    static let reuseIdentifier = "record"
    /// The most bytes of UTF-8 one value takes in a page; longer values are cut.
    static let maxShownBytes = 256
    /// The most bytes of UTF-8 one value takes on its row's own URL; longer values are cut.
    static let maxRowValueBytes = 1 << 20
    /// The most bytes of a blob shown in hexadecimal on its row's own URL.
    static let maxHexBytes = 1024

    /// How much of each value a cell shows.
    enum Extent {
        /// A row in a page: values cut to ``maxShownBytes``, blobs as their size.
        case page
        /// A row on its own URL: values up to ``maxRowValueBytes``, blobs' first bytes in hex.
        case row
    }

    /// `<span class="tk-field" role="cell" data-field="{column}"><span class="tk-field-name">{column}</span>
    /// <span class="tk-field-value">{value}</span></span>` per column, in column order, so a page
    /// lines the values up under its header's columns (`Public/table-pages.css`) and a row's own
    /// URL shows them as name | value lines. The value is an
    /// `<a class="tk-field-value tk-cut" href="{row URL}">` instead when the page shows less than
    /// the whole value (see ``isPartial(_:)``): the row's URL shows it whole. In a row, the first
    /// value (the key's: the schema puts the primary key first) is an
    /// `<a class="tk-field-value tk-key …" href="{row URL}">`, as Datasette links a row's key.
    static let kind = kind(linking: [])

    /// The kind of a table whose `linked` columns link to other tables' rows: their values show
    /// the referenced row's label, linked to it (``appendLinked(_:link:into:)``), and a row's own
    /// page lists the links from other tables (``appendIncomingLinks(_:into:)``).
    static func kind(linking linked: [DatabaseLinkedColumn]) -> CellKind {
        let links = Dictionary(linked.map { ($0.column, $0) }, uniquingKeysWith: { first, _ in first })
        var kind = CellKind(reuseIdentifier: reuseIdentifier) { content, placement, out in
            render(content, placement, links, &out)
        }
        kind.writesCells = true
        return kind
    }

    private static func render(_ content: CellContent, _ placement: CellPlacement, _ links: [String: DatabaseLinkedColumn], _ out: inout OutputBuffer) {
        defer { if placement.isRow { appendIncomingLinks(content, into: &out) } }
        for (position, field) in content.fields.enumerated() {
            out.append("<span class=\"tk-field\" role=\"cell\" data-field=\"")
            out.appendEscapedHTML(field.name)
            out.append("\"><span class=\"tk-field-name\">")
            out.appendEscapedHTML(field.name)
            out.append("</span> ")
            if placement.isRow && position == 0 && !isPartial(field) {
                out.append("<a class=\"tk-field-value tk-key")
                out.append(typeClass(field))
                out.append("\" href=\"")
                placement.appendRowURL(into: &out)
                out.append("\" title=\"Show this row\">")
                out.appendEscapedHTML(field.value)
                out.append("</a></span>")
                continue
            }
            // Writes nothing when the value refers to no row.
            if !links.isEmpty, let link = links[field.name], appendLinked(field, link: link, into: &out) {
                out.append("</span>")
                continue
            }
            if placement.isRow && isPartial(field) {
                out.append(isCutText(field) ? "<a class=\"tk-field-value tk-cut\" href=\"" : "<a class=\"tk-field-value tk-blob\" href=\"")
                placement.appendRowURL(into: &out)
                out.append("\" title=\"Show the whole value\">")
                out.appendEscapedHTML(field.value)
                out.append("</a></span>")
                continue
            }
            out.append("<span class=\"tk-field-value")
            out.append(typeClass(field))
            out.append("\">")
            out.appendEscapedHTML(field.value)
            out.append("</span></span>")
        }
    }

    /// The class that marks the kind of a value, after a space; nothing for text.
    private static func typeClass(_ field: CellField) -> StaticString {
        switch field.json {
        case .null?: " tk-null"
        case .integer?, .number?: " tk-number"
        case .string?: " tk-blob"
        case .bool?, .array?, .object?, nil: ""
        }
    }

    /// Whether HTML shows less of the field's value than there is: text cut to the bound, or a
    /// non-empty blob shown as its size alone (on a row's own URL a blob also shows its bytes).
    static func isPartial(_ field: CellField) -> Bool {
        guard case .string(let json)? = field.json, !json.isEmpty else { return false }
        return isCutText(field) || field.value.hasSuffix(" bytes") || field.value == "1 byte"
    }

    /// Whether the field is text cut to the bound. A cut text's JSON is set to the very text
    /// shown, which JSON output writes exactly as it writes a field without JSON: the mark costs
    /// scripts nothing. A blob's JSON (base64) never equals its size text.
    private static func isCutText(_ field: CellField) -> Bool {
        field.json == .string(field.value)
    }

    /// The cell of a row with these columns and values.
    static func cell(columns: [String], values: some Sequence<SQLValue>, extent: Extent = .page) -> TableCell {
        TableCell(reuseIdentifier: reuseIdentifier, content: CellContent(fields: zip(columns, values).map { field($0, $1, extent: extent) }))
    }

    /// A column's value as a field: the text shown, and the JSON value when it is not that text.
    static func field(_ column: String, _ value: SQLValue, extent: Extent = .page) -> CellField {
        let maxBytes = extent == .page ? maxShownBytes : maxRowValueBytes
        switch value {
        case .null:
            return CellField(name: column, value: "NULL", json: json(ofWhole: value))
        case .integer(let integer):
            return CellField(name: column, value: String(integer), json: json(ofWhole: value))
        case .bool(let flag):
            return CellField(name: column, value: flag ? "true" : "false", json: json(ofWhole: value))
        case .real(let double):
            return CellField(name: column, value: String(double), json: json(ofWhole: value))
        case .text(let text):
            guard text.utf8.count > maxBytes else { return CellField(name: column, value: text) }
            let cut = shortened(text, maxBytes: maxBytes)
            return CellField(name: column, value: cut, json: .string(cut))
        case .blob(let data):
            var shown = data.count == 1 ? "1 byte" : "\(data.count) bytes"
            if extent == .row && !data.isEmpty {
                shown += ": " + DatabaseValueCoding.hex(data.prefix(maxHexBytes)) + (data.count > maxHexBytes ? "\u{2026}" : "")
            }
            // Base64 takes four bytes per three: encode no more than fits the bound.
            let encodable = (data.count + 2) / 3 * 4 <= maxBytes ? data.count : (maxBytes - ellipsisBytes) / 4 * 3
            let encoded = data.prefix(encodable).base64EncodedString()
            return CellField(name: column, value: shown, json: .string(encodable < data.count ? encoded + "\u{2026}" : encoded))
        }
    }

    /// Whether a page shows `value` whole, as it is: anything but a blob (shown as its size) or a
    /// text longer than ``maxShownBytes`` (cut).
    static func isShownWhole(_ value: SQLValue) -> Bool {
        switch value {
        case .null, .integer, .bool, .real: true
        case .text(let text): text.utf8.count <= maxShownBytes
        case .blob: false
        }
    }

    /// What JSON output writes for a value a page shows whole (``isShownWhole(_:)``): the field's
    /// JSON, or its text as a string.
    static func json(ofWhole value: SQLValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .bool(let flag): .bool(flag)
        case .real(let double): .number(double)
        case .text(let text): .string(text)
        case .blob: .null  // Never: a blob is shown as its size.
        }
    }

    /// A group's value as a section header.
    static func headerTitle(column: String, value: SQLValue) -> String {
        column + ": " + field(column, value).value
    }

    /// The UTF-8 of the ellipsis that ends a cut value.
    private static let ellipsisBytes = 3

    /// `text`, or when it takes more than `maxBytes` of UTF-8, its start and an ellipsis in
    /// `maxBytes`.
    private static func shortened(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        return String(text.prefix(maxUTF8Count: maxBytes - ellipsisBytes)) + "\u{2026}"
    }
}
