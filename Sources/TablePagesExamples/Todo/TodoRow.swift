import TablePages

/// The row delegate of one to-do. Selecting toggles it, "Rename" retitles it, deleting removes
/// it: each writes to the store, and the page reads the change back like any other writer's. A
/// write that fails throws, so the request that asked for it fails and no page shows the change.
final class TodoRow: ObservedRow<Todo> {
    private let list: TodoList

    init(todo: Todo, list: TodoList) {
        self.list = list
        super.init(item: todo)
    }

    var id: Int64 { item.id ?? 0 }

    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID("todo-\(id)") }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.subtitle, TodoCell(todo: item)) }

    override func didSelectRow(at indexPath: TableIndexPath) throws {
        try list.toggle(id)
    }

    override func canEditRow(at indexPath: TableIndexPath) -> Bool { true }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .delete }
    override func canMoveRow(at indexPath: TableIndexPath) -> Bool { true }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        guard editingStyle == .delete else { return }
        try list.delete(id)
    }

    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] {
        [RowAction(name: "rename", title: "Rename", field: .init(name: "title", placeholder: "New title", value: item.title, maxLength: ItemTitle.maxLength))]
    }

    override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        // A blank title leaves the to-do as it was.
        guard name == "rename", let title = try ItemTitle.checked(values["title"]) else { return }
        try list.rename(id, to: title)
    }
}
