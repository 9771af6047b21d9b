import Foundation
import GRDB
import TableKit

/// The cell of a database row: every column as a name and a value.
///
/// HTML shows each value formatted for reading: numbers as SQLite returns them (`12.5`, `42`),
/// NULL as a marked `NULL`, text cut to ``maxShownCharacters`` with an ellipsis, a blob as its size.
/// JSON carries the values themselves in `fields`: numbers as numbers, NULL as `null`, text whole,
/// a blob as a base64 string.
enum DatabaseRecordCell {
    /// The cell kind's reuse identifier.
    static let reuseIdentifier = "record"
    /// Text longer than this many characters is cut in HTML; JSON has it whole.
    static let maxShownCharacters = 200

    /// `<span class="tk-field" data-field="{column}"><span class="tk-field-name">{column}</span>
    /// <span class="tk-field-value">{value}</span></span>` per column.
    static let kind = CellKind(reuseIdentifier: reuseIdentifier) { content, out in
        for field in content.fields {
            out.append("<span class=\"tk-field\" data-field=\"")
            out.appendEscapedHTML(field.name)
            out.append("\"><span class=\"tk-field-name\">")
            out.appendEscapedHTML(field.name)
            out.append("</span> ")
            switch field.json {
            case .null?: out.append("<span class=\"tk-field-value tk-null\">")
            case .integer?, .number?: out.append("<span class=\"tk-field-value tk-number\">")
            case .string?: out.append("<span class=\"tk-field-value tk-blob\">")
            case .bool?, nil: out.append("<span class=\"tk-field-value\">")
            }
            out.appendEscapedHTML(shortened(field.value))
            out.append("</span></span>")
        }
    }

    /// The cell of a row with these columns and values.
    static func cell(columns: [String], values: some Sequence<DatabaseValue>) -> TableCell {
        TableCell(reuseIdentifier: reuseIdentifier, content: CellContent(fields: zip(columns, values).map(field)))
    }

    /// A column's value as a field: the text shown, and the JSON value when it is not that text.
    static func field(_ column: String, _ value: DatabaseValue) -> CellField {
        switch value.storage {
        case .null: CellField(name: column, value: "NULL", json: .null)
        case .int64(let integer): CellField(name: column, value: String(integer), json: .integer(integer))
        case .double(let double): CellField(name: column, value: String(double), json: .number(double))
        case .string(let text): CellField(name: column, value: text)
        case .blob(let data):
            CellField(name: column, value: data.count == 1 ? "1 byte" : "\(data.count) bytes", json: .string(data.base64EncodedString()))
        }
    }

    /// A group's value as a section header.
    static func headerTitle(column: String, value: DatabaseValue) -> String {
        column + ": " + shortened(field(column, value).value)
    }

    /// `text`, cut to ``maxShownCharacters`` with an ellipsis.
    private static func shortened(_ text: String) -> String {
        // Counting UTF-8 first skips the slower character count for the usual short value.
        guard text.utf8.count > maxShownCharacters, text.count > maxShownCharacters else { return text }
        return String(text.prefix(maxShownCharacters)) + "\u{2026}"
    }
}
