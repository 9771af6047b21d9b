import Foundation
import TablePages

/// The title of a to-do or a checklist item, as its add form, its "Rename" and a script give it:
/// at most ``maxLength`` characters, counted as a browser counts them for `maxlength`
/// (``FormField/length(of:)``), so the form stops a longer title as it is typed, and a longer one
/// sent anyway is refused with a 400 that says the limit rather than cut without a word.
enum ItemTitle {
    /// The most characters a title may have.
    static let maxLength = 400

    /// The add form's field. Not required in the browser: a blank title reaches the server, whose
    /// ``TitleRequired`` says what to type.
    static let field = FormField(name: "title", label: "Title", maxLength: maxLength)

    /// `text` as it is kept: without NUL characters (PostgreSQL's text cannot hold them, and both
    /// stores should keep the same title) and the whitespace at either end; nil when nothing is left.
    /// - Throws: ``FormFieldProblem`` when `text` is longer than ``maxLength``.
    static func checked(_ text: String?) throws -> String? {
        let text = text ?? ""
        _ = try FormField.checkedValues([field.name: text], against: [field])
        let trimmed = text.replacingOccurrences(of: "\u{0}", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
