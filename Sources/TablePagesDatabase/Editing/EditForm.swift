import Escaping
import TableKit
import TableStore

/// The HTML of a table's edit and insert forms, which work without a script (a plain POST, then
/// a redirect or the form again with what went wrong) and which the page script fetches to edit
/// a cell in place (``cellEditor(_:value:version:action:csrf:choices:)``).
///
/// Every input has a visible label naming its column; a column that takes NULL has a "NULL"
/// checkbox of its own, so an empty text and NULL are two choices; a foreign key picks from the
/// referenced rows' labels when there are few enough of them (``Choice``).
enum EditForm {
    /// A value a foreign-key column may take, with the referenced row's label.
    struct Choice: Sendable, Hashable {
        /// The referenced column's value.
        let value: SQLValue
        /// What the person reads: the label, then the value.
        let label: String
    }

    /// A text longer than this, or with a line break, is edited in a larger box.
    static let longTextLength = 80

    /// The inputs of `columns`, with `values` (a row's, or none for an insert); `problem` is
    /// written beside the input of its column.
    static func fields(
        _ columns: [EditableColumn], values: [String: SQLValue]?, choices: [String: [Choice]], problem: (column: String?, message: String)? = nil,
        inserting: Bool
    ) -> String {
        var html = ""
        for (index, column) in columns.enumerated() {
            html += field(column, value: values?[column.name], choices: choices[column.name], id: "tp-edit-\(index)", problem: problem?.column == column.name ? problem?.message : nil, inserting: inserting)
        }
        return html
    }

    /// One column's label, input, NULL choice and the problem found with it.
    static func field(_ column: EditableColumn, value: SQLValue?, choices: [Choice]?, id: String, problem: String?, inserting: Bool) -> String {
        let name = HTMLEscaping.escape(EditInput.valuePrefix + column.name)
        var html = "<div class=\"tp-edit-field\" data-column=\"" + HTMLEscaping.escape(column.name) + "\" data-editor=\"" + editorName(column.editor) + "\">"
        html += "<label for=\"" + id + "\"><span class=\"tp-edit-name\">" + HTMLEscaping.escape(column.name) + "</span> <span class=\"tp-edit-hint\">"
        html += HTMLEscaping.escape(column.hint) + "</span></label>"
        let invalid = problem == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"" + id + "-problem\""
        let text = value.map(EditInput.text(of:)) ?? ""
        switch column.editor {
        case .blob:
            let size = if case .blob(let bytes)? = value { "\(bytes.count) bytes" } else { "no bytes" }
            html += "<p id=\"" + id + "\" class=\"tp-edit-blob\">Bytes (" + size + "): not edited here.</p>"
        case _ where choices != nil:
            html += "<select id=\"" + id + "\" name=\"" + name + "\"" + invalid + ">"
            html += "<option value=\"\"" + (value == nil || value == .null ? " selected" : "") + ">\u{2014}</option>"
            var found = false
            for choice in choices ?? [] {
                let selected = value.map { $0 == choice.value } ?? false
                found = found || selected
                html += "<option value=\"" + HTMLEscaping.escape(EditInput.text(of: choice.value)) + "\"" + (selected ? " selected" : "") + ">"
                html += HTMLEscaping.escape(choice.label) + "</option>"
            }
            if !found, let value, value != .null {
                // A value that refers to no row is still the row's value: shown, and kept unless changed.
                html += "<option value=\"" + HTMLEscaping.escape(text) + "\" selected>" + HTMLEscaping.escape(text) + " (no such row)</option>"
            }
            html += "</select>"
        case .boolean:
            let (yes, no) = column.isPostgresBoolean ? ("true", "false") : ("1", "0")
            html += "<select id=\"" + id + "\" name=\"" + name + "\"" + invalid + ">"
            html += "<option value=\"\">\u{2014}</option>"
            html += "<option value=\"" + yes + "\"" + (["1", "true"].contains(text) ? " selected" : "") + ">true (" + yes + ")</option>"
            html += "<option value=\"" + no + "\"" + (["0", "false"].contains(text) ? " selected" : "") + ">false (" + no + ")</option>"
            if !["", "1", "true", "0", "false"].contains(text) {
                // Another value (text in a loosely typed column) is still the row's: kept unless changed.
                html += "<option value=\"" + HTMLEscaping.escape(text) + "\" selected>" + HTMLEscaping.escape(text) + "</option>"
            }
            html += "</select>"
        case _ where text.contains(where: \.isNewline), .text where text.count > longTextLength:
            // A one-line input drops line breaks, so a value with one is shown (and sent back) whole
            // in a box. The parser drops one line break just after the tag: that one is ours.
            html += "<textarea id=\"" + id + "\" name=\"" + name + "\" rows=\"6\"" + invalid + ">\n" + HTMLEscaping.escape(text) + "</textarea>"
        default:
            // A picker or number box empties a value it cannot show, and the form would then send
            // that emptiness back: such a value is shown in a text box, the format as its hint.
            let type = switch column.editor {
            case .integer where text.isEmpty || isPlainInteger(text): "number\" step=\"1\" inputmode=\"numeric"
            case .integer: "text\" inputmode=\"numeric"
            case .real: "text\" inputmode=\"decimal"
            case .date where text.isEmpty || isPickerDate(text): "date"
            default: "text"
            }
            let placeholder = switch column.editor {
            case .dateTime: " placeholder=\"YYYY-MM-DD HH:MM:SS\""
            case .date where type == "text": " placeholder=\"YYYY-MM-DD\""
            default: ""
            }
            let required = column.isNotNull && !column.fillsItself && inserting ? " required" : ""
            html += "<input id=\"" + id + "\" type=\"" + type + "\" name=\"" + name + "\" value=\"" + HTMLEscaping.escape(text) + "\"" + placeholder + required + invalid + ">"
        }
        if !column.isNotNull && column.editor != .blob {
            html += "<label class=\"tp-edit-null\"><input type=\"checkbox\" name=\"" + EditInput.nullField + "\" value=\"" + HTMLEscaping.escape(column.name) + "\""
            html += (value == .null ? " checked" : "") + "> NULL</label>"
        }
        if let problem {
            html += "<p class=\"tp-edit-problem\" id=\"" + id + "-problem\" role=\"alert\">" + HTMLEscaping.escape(problem) + "</p>"
        }
        return html + "</div>"
    }

    /// Whether a date picker shows `text` exactly: a date as a form's date field reads it
    /// (`FormField.isDate`), from year 0001 on, as HTML's valid date string is.
    static func isPickerDate(_ text: String) -> Bool {
        FormField.isDate(text) && !text.hasPrefix("0000")
    }

    /// Whether a number box shows `text` exactly: an integer written as a number box writes it
    /// back (no sign but a minus, no leading zeros or spaces).
    static func isPlainInteger(_ text: String) -> Bool {
        Int64(text).map { String($0) == text } ?? false
    }

    /// The editor's name, for the page script and the style sheet.
    static func editorName(_ editor: EditableColumn.Editor) -> String {
        switch editor {
        case .text: "text"
        case .integer: "integer"
        case .real: "real"
        case .date: "date"
        case .dateTime: "datetime"
        case .boolean: "boolean"
        case .blob: "blob"
        }
    }

    /// The hidden inputs every form carries: the viewer's CSRF token (a form posted without a
    /// script has no other way to send it) and the version the form was made on.
    static func hidden(csrf: String?, version: RowVersion?) -> String {
        var html = ""
        if let csrf {
            html += "<input type=\"hidden\" name=\"" + PageContract.Field.csrf + "\" value=\"" + HTMLEscaping.escape(csrf) + "\">"
        }
        if let version {
            html += "<input type=\"hidden\" name=\"" + EditInput.versionField + "\" value=\"" + version.token + "\">"
        }
        return html
    }

    /// A form that edits one column of a row in place, for the page script: the column's input
    /// and NULL choice, the row's version, Save and Cancel, and Delete row (which the script asks
    /// to confirm).
    static func cellEditor(_ column: EditableColumn, value: SQLValue?, version: RowVersion, action: String, csrf: String?, choices: [Choice]?) -> String {
        var html = "<form class=\"tp-cell-editor\" method=\"post\" action=\"" + HTMLEscaping.escape(action) + "\" data-version=\"" + version.token + "\">"
        html += hidden(csrf: csrf, version: version)
        html += field(column, value: value, choices: choices, id: "tp-cell-" + version.token, problem: nil, inserting: false)
        html += "<div class=\"tp-edit-buttons\"><button type=\"submit\">Save</button><button type=\"button\" class=\"tp-cancel\">Cancel</button>"
        html += "<button type=\"button\" class=\"tp-delete-row tk-destructive\">Delete row</button></div></form>"
        return html
    }
}
