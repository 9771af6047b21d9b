import TableKit

/// Below a list: one insert-style row, whose form adds an item (`POST {page}/sections/add/rows`),
/// so a browser can add to the list without a script. Its fields are declared (``FormField``): the
/// to-do lists' and the checklist's one ``ItemTitle/field``, the reading list's a title and an author.
/// The insertion is delivered here, to the section, at the index one past its last row.
final class AddSection: StaticSection {
    private let fields: [FormField]
    private let add: ([String: String]) throws -> Void

    /// `row` and `prompt` name the form's row and label the form; `add` is given the values of
    /// `fields`, already checked against them.
    init(row: RowID, prompt: String, fields: [FormField], add: @escaping ([String: String]) throws -> Void) {
        self.fields = fields
        self.add = add
        super.init(id: "add", rows: [AddRow(id: row, cell: TableCell(.basic, CellContent(title: prompt)))])
    }

    override func fieldsForInserting(inSection section: Int) -> [FormField] { fields }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        guard editingStyle == .insert else { return }
        // The list shows the new item when it announces the change, as for any other writer's.
        try add(values)
    }

    /// The row that carries the insert form.
    private final class AddRow: StaticRow {
        override func canEditRow(at indexPath: TableIndexPath) -> Bool { true }
        override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .insert }
    }
}
