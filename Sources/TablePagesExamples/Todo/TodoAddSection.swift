import TableKit

/// Below a personal to-do list: one insert-style row, whose form adds a to-do
/// (`POST /pages/mine/sections/add/rows` with `title`), so a browser can fill the list without a script.
final class TodoAddSection: StaticSection {
    private let list: TodoList

    init(list: TodoList) {
        self.list = list
        super.init(id: "add", rows: [AddRow(id: "add-todo", cell: TableCell(.basic, CellContent(title: "New to-do")))])
    }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        guard editingStyle == .insert, let title = TodoList.cleanTitle(values["title"]) else { return }
        // The list's section shows the new item once the store announces the write.
        try list.add(title: title)
    }

    /// The row that carries the insert form.
    private final class AddRow: StaticRow {
        override func canEditRow(at indexPath: TableIndexPath) -> Bool { true }
        override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .insert }
    }
}
