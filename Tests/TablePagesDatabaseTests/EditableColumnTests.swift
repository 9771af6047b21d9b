@testable import TablePagesDatabase
import TableStore
import Testing

/// The editor each declared type gets, and how a typed value is read for it.
@Suite("Editors that fit a column's type")
struct EditableColumnTests {
    @Test("PostgreSQL's types: an array is typed as text, never picked like its element; numbers, dates and times fit")
    func postgresEditors() {
        let cases: [(type: String, editor: EditableColumn.Editor)] = [
            ("boolean", .boolean), ("boolean[]", .text), ("integer[]", .text), ("timestamp with time zone[]", .text),
            ("bigint", .integer), ("numeric", .real), ("double precision", .real), ("date", .date),
            ("timestamp without time zone", .dateTime), ("timestamp with time zone", .dateTime),
            ("jsonb", .text), ("uuid", .text), ("bytea", .blob),
        ]
        for (type, editor) in cases {
            #expect(EditableColumn.editor(forType: type, postgres: true) == editor, "\(type)")
        }
        #expect(EditableColumn.editor(forType: "BOOLEAN", postgres: false) == .boolean)
        #expect(EditableColumn.editor(forType: "DATETIME", postgres: false) == .dateTime)
    }

    @Test("A PostgreSQL numeric goes as typed, exactly; a double is read as a number")
    func exactNumbers() {
        let numeric = EditableColumn(name: "price", declaredType: "numeric", isNotNull: false, defaultSQL: nil, fillsItself: false, editor: .real, isPostgresBoolean: false)
        #expect(EditInput.value(" 12345678901234.567891 ", for: numeric) == .text("12345678901234.567891"))
        #expect(EditInput.value("", for: numeric) == .null)
        let double = EditableColumn(name: "weight", declaredType: "double precision", isNotNull: false, defaultSQL: nil, fillsItself: false, editor: .real, isPostgresBoolean: false)
        #expect(EditInput.value("2.5", for: double) == .real(2.5))
    }
}
