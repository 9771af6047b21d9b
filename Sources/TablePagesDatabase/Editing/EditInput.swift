import Foundation
import MicroHTTP
import TableStore

/// What an edit or insert form sent, read into the values of the columns it names: the form's
/// inputs are `v.{column}` (the value as typed) and `null` (repeated: the columns set to NULL),
/// with `_version` (the `RowVersion` the form was made on), and `_paste` (rows copied from a
/// spreadsheet) with `_preview` for an insert form.
///
/// A value becomes the kind its column holds (``EditableColumn/Editor``): digits in a number
/// column a number, `1`/`0` or `true`/`false` in a boolean one; anything else stays text, for the
/// database to take or refuse by its own rules (SQLite's affinity, a STRICT table, PostgreSQL's
/// types). A number column left empty is NULL: nobody means an empty text there.
struct EditInput: Sendable {
    /// The form's fields in the order sent, decoded.
    let pairs: [(name: String, value: String)]

    /// The prefix of a column's input.
    static let valuePrefix = "v."
    /// The name of the NULL checkboxes (one per column, the column's name its value).
    static let nullField = "null"
    /// The field of the version the form was made on.
    static let versionField = "_version"
    /// The field of pasted rows.
    static let pasteField = "_paste"
    /// The field that asks to see pasted rows before they are written.
    static let previewField = "_preview"

    /// The body of `request`, a form (`application/x-www-form-urlencoded`).
    /// - Throws: 415 for another body type, 400 for a malformed form.
    static func parse(_ request: Request) throws(HTTPError) -> EditInput {
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") || (request.body.isEmpty && type.isEmpty) else {
            throw HTTPError(415, "Send the form as application/x-www-form-urlencoded.")
        }
        var pairs: [(name: String, value: String)] = []
        for part in request.body.split(separator: UInt8(ascii: "&")) where !part.isEmpty {
            let halves = part.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(String(decoding: halves[0], as: UTF8.self), plusAsSpace: true),
                  let value = PercentEncoding.decode(halves.count > 1 ? String(decoding: halves[1], as: UTF8.self) : "", plusAsSpace: true) else {
                throw HTTPError(400, "The form is malformed: a name or value is not valid percent-encoded UTF-8.")
            }
            pairs.append((name, value))
        }
        return EditInput(pairs: pairs)
    }

    /// The first value of field `name`; nil when it was not sent.
    func field(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The columns set to NULL.
    var nullColumns: Set<String> {
        Set(pairs.filter { $0.name == Self.nullField }.map(\.value))
    }

    /// The values for `columns` the form sent, each as its column holds it. An insert
    /// (`leavingOutEmpty`) leaves out a column sent empty and not NULL, so the database fills it in.
    /// - Throws: 400 naming a column the table lacks.
    func values(for columns: [EditableColumn], leavingOutEmpty: Bool) throws(HTTPError) -> [String: SQLValue] {
        let byName = Dictionary(columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var values: [String: SQLValue] = [:]
        for (name, text) in pairs where name.hasPrefix(Self.valuePrefix) {
            let column = String(name.dropFirst(Self.valuePrefix.count))
            guard let editable = byName[column] else {
                throw HTTPError(400, "The table has no column \u{201C}\(column)\u{201D}.", headers: [Self.fieldHeader: name])
            }
            if leavingOutEmpty && text.isEmpty { continue }
            values[column] = Self.value(text, for: editable)
        }
        for column in nullColumns {
            guard byName[column] != nil else {
                throw HTTPError(400, "The table has no column \u{201C}\(column)\u{201D}.")
            }
            values[column] = .null
        }
        return values
    }

    /// The header that names the input at fault, as the page script reads it beside a form.
    static let fieldHeader = "TablePages-Field"

    /// `text` as `column` holds it.
    static func value(_ text: String, for column: EditableColumn) -> SQLValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch column.editor {
        case .integer:
            if trimmed.isEmpty { return .null }
            return Int64(trimmed).map(SQLValue.integer) ?? .text(text)
        case .real:
            if trimmed.isEmpty { return .null }
            // PostgreSQL's numeric is exact: its text goes as typed, for the database to read
            // (a Double would round 0.1 + 12 digits away).
            if column.declaredType == "numeric" { return .text(trimmed) }
            return Double(trimmed).flatMap { $0.isFinite ? SQLValue.real($0) : nil } ?? .text(text)
        case .boolean:
            switch trimmed.lowercased() {
            case "": return .null
            case "1", "true", "yes", "on": return column.isPostgresBoolean ? .bool(true) : .integer(1)
            case "0", "false", "no", "off": return column.isPostgresBoolean ? .bool(false) : .integer(0)
            default: return .text(text)
            }
        case .text, .date, .dateTime, .blob:
            return .text(text)
        }
    }

    /// `value` as a form's input shows it (``value(_:for:)`` reads it back as the same value).
    static func text(of value: SQLValue) -> String {
        switch value {
        case .null: ""
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .blob(let bytes): bytes.base64EncodedString()
        }
    }
}
