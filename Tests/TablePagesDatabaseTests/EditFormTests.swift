import Escaping
import HostileTextSupport
import PropertyBased
@testable import TablePagesDatabase
import TableStore
import Testing

/// An edit form shows every stored value as it is, so that sending the form back unchanged
/// changes nothing: a browser's date picker or number box empties a value it cannot show.
@Suite("Edit forms keep values their controls cannot show")
struct EditFormTests {
    private static func column(_ editor: EditableColumn.Editor, type: String) -> EditableColumn {
        EditableColumn(name: "c", declaredType: type, isNotNull: false, defaultSQL: nil, fillsItself: false, editor: editor, isPostgresBoolean: false)
    }

    private static func html(_ editor: EditableColumn.Editor, type: String, _ value: SQLValue) -> String {
        EditForm.field(column(editor, type: type), value: value, choices: nil, id: "f", problem: nil, inserting: false)
    }

    /// Whether `html` holds `part` byte for byte (a `String` compares by characters, and a value
    /// that starts with a combining mark joins the character before it).
    private static func has(_ html: String, _ part: String) -> Bool {
        Array(html.utf8).firstRange(of: Array(part.utf8)) != nil
    }

    @Test("A date picker only for a day it shows exactly; any other value in a text box hinted YYYY-MM-DD")
    func dates() {
        for day in ["2026-03-04", "2024-02-29", "0001-01-01", "9999-12-31"] {
            #expect(EditForm.isPickerDate(day), "\(day)")
            #expect(Self.html(.date, type: "DATE", .text(day)).contains("type=\"date\" name=\"v.c\" value=\"\(day)\""), "\(day)")
        }
        for other in ["infinity", "-infinity", "soon", "2026-13-45", "2023-02-29", "0000-01-01", "2026-1-04", "+2026-01-04", "20260-01-04",
                      "2026-03-04 BC", "2026-03-04T10:00", "\u{0662}\u{0660}\u{0662}\u{0666}-01-01", "2026-02-30", " 2026-03-04"] {
            #expect(!EditForm.isPickerDate(other), "\(other)")
            let html = Self.html(.date, type: "date", .text(other))
            #expect(html.contains("type=\"text\"") && html.contains("placeholder=\"YYYY-MM-DD\""), "\(other)")
        }
        #expect(Self.html(.date, type: "DATE", .null).contains("type=\"date\""))
    }

    @Test("Any text in a date, integer or boolean-like column is shown whole, never in a control that would empty it")
    func anyTextIsShown() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            let date = Self.html(.date, type: "DATE", .text(text))
            #expect(Self.has(date, "type=\"date\"") == (text.isEmpty || EditForm.isPickerDate(text)))
            let integer = Self.html(.integer, type: "INTEGER", .text(text))
            #expect(Self.has(integer, "type=\"number\"") == (text.isEmpty || EditForm.isPlainInteger(text)))
            let boolean = Self.html(.boolean, type: "BOOLEAN", .text(text))
            #expect(Self.has(boolean, " selected>") || text.isEmpty)
            if text.contains(where: \.isNewline) {
                // In a box, after the line break the parser drops, so a leading one of the value stays.
                #expect(Self.has(date, ">\n" + HTMLEscaping.escape(text) + "</textarea>"))
            }
        }
    }

    @Test("A number box only for an integer as it writes one back")
    func integers() {
        #expect(EditForm.isPlainInteger("-42") && EditForm.isPlainInteger("9223372036854775807"))
        for other in ["+42", "042", " 42", "4.0", "1e3", "", "9223372036854775808", "x"] {
            #expect(!EditForm.isPlainInteger(other), "\(other)")
        }
        #expect(Self.html(.integer, type: "INTEGER", .text("abc")).contains("type=\"text\" inputmode=\"numeric\" name=\"v.c\" value=\"abc\""))
    }
}
