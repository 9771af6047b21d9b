import TableKit

/// Below a list: one insert-style row, whose form adds an item (`POST {page}/sections/add/rows`
/// with `title`), so a browser can add to the list without a script. The to-do lists and the
/// checklist end with one: a page that says "add" has a place to do it.
final class AddSection: StaticSection {
    private let add: (String?) throws -> Void

    /// `row` and `prompt` name the form's row and label its field; `add` is given what was typed.
    init(row: RowID, prompt: String, add: @escaping (String?) throws -> Void) {
        self.add = add
        super.init(id: "add", rows: [AddRow(id: row, cell: TableCell(.basic, CellContent(title: prompt)))])
    }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        guard editingStyle == .insert else { return }
        // The list shows the new item when it announces the change, as for any other writer's.
        try add(values["title"])
    }

    /// The row that carries the insert form.
    private final class AddRow: StaticRow {
        override func canEditRow(at indexPath: TableIndexPath) -> Bool { true }
        override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .insert }
    }
}
