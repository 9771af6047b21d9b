import Foundation
import HostileTextSupport
import PropertyBased
import Testing
import TableKit

/// Forms of declared fields: how submitted values are checked (``FormField/checkedValues(_:against:)``),
/// how the library writes the inputs, and that a table checks values before its delegate sees them.
@Suite("Forms of declared fields")
struct FormFieldTests {
    static let kinds: [FormField.Kind] = [.text, .longText, .integer, .number, .date, .checkbox, .choice(["to read", "done"])]

    static func field(_ kind: FormField.Kind, required: Bool = false, maxLength: Int? = nil) -> FormField {
        FormField(name: "f", label: "Pages", kind: kind, isRequired: required, defaultValue: "", maxLength: maxLength)
    }

    static func problem(_ value: String?, _ field: FormField) -> FormFieldProblem? {
        do {
            _ = try FormField.checkedValues(value.map { ["f": $0] } ?? [:], against: [field])
            return nil
        } catch {
            return error
        }
    }

    @Test("Arbitrary text for every kind is either delivered in the kind's form or refused naming the field")
    func arbitraryValues() async {
        await propertyCheckFailingOnThrow(input: HostileText.text, Gen.int(in: 0...6), Gen.int(in: 0...3)) { text, kindIndex, flags in
            let field = Self.field(Self.kinds[kindIndex], required: flags & 1 == 1, maxLength: flags & 2 == 2 ? 5 : nil)
            do {
                let checked = try FormField.checkedValues(["f": text, "other": text], against: [field])
                #expect(Array(checked.keys) == ["f"], "only declared fields arrive")
                let value = checked["f"] ?? ""
                switch field.kind {
                case .integer: #expect(value.isEmpty || Int64(value) != nil)
                case .number: #expect(value.isEmpty || Double(value)?.isFinite == true)
                case .date: #expect(value.isEmpty || FormFieldTests.looksLikeDate(value))
                case .checkbox: #expect(value == "true" || value == "false")
                case .choice(let options): #expect(value.isEmpty || options.contains(value))
                case .text, .longText:
                    #expect(value == text || (value.isEmpty && !text.contains { !$0.isWhitespace }))
                    if field.maxLength != nil { #expect(FormField.length(of: value) <= 5) }
                }
                if field.isRequired, field.kind != .checkbox { #expect(!value.isEmpty) }
            } catch let problem as FormFieldProblem {
                #expect(problem.field == "f")
                #expect(problem.message.contains("\u{201C}Pages\u{201D}"), "the message names the field by its label")
            }
        }
    }

    static func looksLikeDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.map(\.count) == [4, 2, 2]
    }

    @Test("Each mistake is refused in words that name the field")
    func mistakes() {
        #expect(Self.problem(nil, Self.field(.text, required: true))?.message == "Fill in \u{201C}Pages\u{201D}.")
        #expect(Self.problem("   ", Self.field(.text, required: true)) != nil, "blank is not filled in")
        #expect(Self.problem("12x", Self.field(.integer))?.message == "\u{201C}Pages\u{201D} must be a whole number, such as 12.")
        #expect(Self.problem("abcdef", Self.field(.text, maxLength: 5))?.message == "\u{201C}Pages\u{201D} may have at most 5 characters; this one has 6.")
        #expect(Self.problem("inf", Self.field(.number)) != nil)
        #expect(Self.problem("2026-02-29", Self.field(.date)) != nil)
        #expect(Self.problem("2024-02-29", Self.field(.date)) == nil)
        #expect(Self.problem("2026-13-01", Self.field(.date)) != nil)
        #expect(Self.problem("maybe", Self.field(.checkbox)) != nil)
        #expect(Self.problem("later", Self.field(.choice(["to read", "done"]))) != nil)
    }

    @Test("A limit counts what a browser's maxlength counts: UTF-16 code units, a line break once")
    func limitCountsAsTheBrowser() {
        let five = Self.field(.longText, maxLength: 5)
        // Three thumbs are three characters but six code units: a browser stops typing at two.
        #expect(Self.problem("👍👍👍", five)?.message == "\u{201C}Pages\u{201D} may have at most 5 characters; this one has 6.")
        #expect(Self.problem("👍👍a", five) == nil)
        // A textarea sends its line breaks as CR LF, which the browser counted as one each.
        #expect(Self.problem("ab\r\ncd", five) == nil)
        #expect(Self.problem("ab\r\ncde", five) != nil)
        #expect(FormField.length(of: "e\u{301}") == 2, "a combining accent is a code unit of its own")
    }

    @Test("Any text measures as its UTF-16 code units, and a line break sent as CR LF as one sent as LF")
    func lengthOfArbitraryText() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            let withoutCR = text.replacingOccurrences(of: "\r", with: "")
            #expect(FormField.length(of: withoutCR) == withoutCR.utf16.count)
            #expect(FormField.length(of: withoutCR.replacingOccurrences(of: "\n", with: "\r\n")) == withoutCR.utf16.count)
        }
    }

    @Test("A row action's one text field with a limit: maxlength in the page and the JSON, and a longer text refused")
    func actionFieldLimit() throws {
        final class Renamable: StaticRow {
            var performed: [[String: String]] = []
            override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] {
                [RowAction(name: "rename", title: "Rename", field: .init(name: "title", placeholder: "New title", value: "Dune", maxLength: 4))]
            }
            override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
                performed.append(values)
            }
        }
        let row = Renamable(id: "b1", cell: TableCell(.basic, CellContent(title: "Dune")))
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [StaticSection(id: "s", rows: [row])]))
        let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/p", showsControls: true))
        let html = try renderer.row("b1", .html)
        #expect(html.contains(#"placeholder="New title" aria-label="New title" value="Dune" maxlength="4">"#), Comment(rawValue: html))
        #expect(try renderer.row("b1", .json).contains(#""field":{"name":"title","placeholder":"New title","value":"Dune","maxLength":4}"#))
        #expect(throws: FormFieldProblem(field: "title", message: "\u{201C}New title\u{201D} may have at most 4 characters; this one has 5.")) {
            try table.performAction(named: "rename", onRow: "b1", values: ["title": "Dunes"])
        }
        #expect(row.performed.isEmpty, "nothing reached the delegate")
        try table.performAction(named: "rename", onRow: "b1", values: ["title": "Arda", "other": "kept"])
        #expect(row.performed == [["title": "Arda", "other": "kept"]])
    }

    @Test("Values arrive in the kind's form, defaults fill optional blanks")
    func deliveredForms() throws {
        let fields = [
            FormField(name: "n", label: "N", kind: .integer),
            FormField(name: "x", label: "X", kind: .number),
            FormField(name: "c", label: "C", kind: .checkbox),
            FormField(name: "d", label: "D", kind: .checkbox),
            FormField(name: "s", label: "S", kind: .choice(["a", "b"]), defaultValue: "b"),
        ]
        let checked = try FormField.checkedValues(["n": " +042 ", "x": "2.50", "c": "on"], against: fields)
        #expect(checked == ["n": "42", "x": "2.5", "c": "true", "d": "false", "s": "b"])
    }

    /// A table whose "add" section declares a title and a page count.
    final class AddBooks: StaticSection {
        var committed: [[String: String]] = []
        static let fields = [
            FormField(name: "title", label: "Title", isRequired: true, maxLength: 20),
            FormField(name: "pages", label: "Pages", kind: .integer),
            FormField(name: "shelf", label: "Shelf <b>", kind: .choice(["to read", "done"]), defaultValue: "done"),
            FormField(name: "lent", label: "Lent", kind: .checkbox),
        ]

        init() {
            super.init(id: "add", rows: [InsertRow(id: "new", cell: TableCell(.basic, CellContent(title: "New book")))])
        }

        override func fieldsForInserting(inSection section: Int) -> [FormField] { Self.fields }

        override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
            #expect(indexPath == TableIndexPath(section: indexPath.section, row: numberOfRows(inSection: indexPath.section)), "one past the last row")
            committed.append(values)
        }
    }

    final class InsertRow: StaticRow {
        var canEdit = true
        override func canEditRow(at indexPath: TableIndexPath) -> Bool { canEdit }
        override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .insert }
    }

    @Test("The add form has a labelled input per field, for viewers who may write only")
    func rendersLabelledFields() throws {
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [AddBooks()]))
        let writer = try TableRenderer(table: table, context: RenderContext(basePath: "/pages/p", showsControls: true)).row("new", .html)
        #expect(writer.contains(#"<form class="tk-insert tk-form" method="post" action="/pages/p/sections/add/rows" aria-label="New book">"#), Comment(rawValue: writer))
        #expect(writer.contains(#"<label class="tk-form-field"><span>Title</span><input name="title" required maxlength="20" type="text" value=""><span class="tk-form-hint">At most 20 characters</span></label>"#))
        #expect(writer.contains(#"<label class="tk-form-field"><span>Pages</span><input name="pages" type="number" step="1" inputmode="numeric" value=""></label>"#))
        #expect(writer.contains(#"<span>Shelf &lt;b&gt;</span><select name="shelf"><option>to read</option><option selected>done</option></select>"#))
        #expect(writer.contains(#"<label class="tk-form-field tk-form-checkbox"><input type="checkbox" name="lent" value="true"><span>Lent</span></label>"#))
        let viewer = try TableRenderer(table: table, context: RenderContext(basePath: "/pages/p", showsControls: false)).row("new", .html)
        #expect(!viewer.contains("<form"), "a viewer who may not write sees no form")
    }

    @Test("A table checks an insert against the section's fields before its delegate sees it")
    func insertIsChecked() throws {
        let add = AddBooks()
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [add]))
        #expect(throws: FormFieldProblem(field: "pages", message: "\u{201C}Pages\u{201D} must be a whole number, such as 12.")) {
            try table.insertRow(inSection: "add", values: ["title": "Dune", "pages": "many"])
        }
        #expect(add.committed.isEmpty, "nothing reached the delegate")
        try table.insertRow(inSection: "add", values: ["title": "Dune", "pages": "412", "_method": "x"])
        #expect(add.committed == [["title": "Dune", "pages": "412", "shelf": "done", "lent": "false"]])
    }

    @Test("An insert-style row that may not be edited is reported, not silent")
    func insertWithoutEditingIsReported() throws {
        let row = InsertRow(id: "new", cell: TableCell(.basic, CellContent(title: "New book")))
        row.canEdit = false
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [StaticSection(id: "add", rows: [row])]))
        var reported: [IgnoredDelegateAnswer] = []
        table.onIgnoredAnswer = { reported.append($0) }
        let html = try TableRenderer(table: table, context: RenderContext(basePath: "/pages/p", showsControls: true)).row("new", .html)
        #expect(!html.contains("tk-insert"))
        #expect(reported.contains(.insertWithoutEditing(row: "new")))
        #expect(reported.first?.message.contains("canEditRow(at:)") == true)
    }

    @Test("A row action's fields make an edit form, and its values are checked before the delegate sees them")
    func actionFieldsAreRenderedAndChecked() throws {
        final class Editable: StaticRow {
            var performed: [[String: String]] = []
            override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] {
                [RowAction(name: "edit", title: "Save", fields: [FormField(name: "title", label: "Title", isRequired: true, defaultValue: "Dune")])]
            }
            override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
                performed.append(values)
            }
        }
        let row = Editable(id: "b1", cell: TableCell(.basic, CellContent(title: "Dune")))
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [StaticSection(id: "s", rows: [row])]))
        let html = try TableRenderer(table: table, context: RenderContext(basePath: "/pages/p", showsControls: true)).row("b1", .html)
        #expect(html.contains(#"<form class="tk-action tk-form" method="post" action="/pages/p/rows/b1/actions/edit"><label class="tk-form-field"><span>Title</span><input name="title" required type="text" value="Dune"></label><button type="submit">Save</button></form>"#), Comment(rawValue: html))
        #expect(throws: FormFieldProblem.self) { try table.performAction(named: "edit", onRow: "b1", values: ["title": " "]) }
        #expect(row.performed.isEmpty)
        try table.performAction(named: "edit", onRow: "b1", values: ["title": "Dune Messiah"])
        #expect(row.performed == [["title": "Dune Messiah"]])
    }
}
