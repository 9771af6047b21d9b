import Logging
import TableKit

/// The row delegate of one to-do. Selecting toggles it, "Rename" retitles it, deleting removes
/// it: each writes to the store, and the page refreshes from the store's change signal.
final class TodoRow: CascadingBareTableDelegate {
    var todo: Todo
    private let list: TodoList

    init(todo: Todo, list: TodoList) {
        self.todo = todo
        self.list = list
        super.init()
    }

    var id: Int64 { todo.id ?? 0 }

    override func rowID(forRowAt indexPath: IndexPath) -> RowID { RowID("todo-\(id)") }
    override func cell(forRowAt indexPath: IndexPath) -> TableCell { TableCell(.subtitle, TodoCell(todo: todo)) }

    override func didSelectRow(at indexPath: IndexPath) {
        TodoRow.attempt("toggle") { try list.toggle(id) }
    }

    override func canEditRow(at indexPath: IndexPath) -> Bool { true }
    override func editingStyleForRow(at indexPath: IndexPath) -> EditingStyle { .delete }
    override func canMoveRow(at indexPath: IndexPath) -> Bool { true }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: IndexPath, values: [String: String]) {
        guard editingStyle == .delete else { return }
        TodoRow.attempt("delete") { try list.delete(id) }
    }

    override func actionsForRow(at indexPath: IndexPath) -> [RowAction] {
        [RowAction(name: "rename", title: "Rename", field: .init(name: "title", placeholder: "New title", value: todo.title))]
    }

    override func performAction(named name: String, forRowAt indexPath: IndexPath, values: [String: String]) {
        guard name == "rename", let title = TodoList.cleanTitle(values["title"]) else { return }
        TodoRow.attempt("rename") { try list.rename(id, to: title) }
    }

    /// Runs a write; a failed write changes nothing on the page, so it is only logged.
    static func attempt(_ what: String, _ write: () throws -> Void) {
        do {
            try write()
        } catch {
            Logger(label: "TablePagesExamples").error("could not \(what) a to-do: \(error)")
        }
    }
}
