import TableKit

/// Adapts a to-do to the reusable subtitle cell: a check mark once it is done, and `"done"` as a
/// boolean in JSON, so a script need not read the subtitle's words.
struct TodoCell: CellDataProvider {
    let todo: Todo

    var title: String? { todo.title }
    var subtitle: String? { todo.isDone ? "done" : "to do" }
    var accessory: CellAccessory { todo.isDone ? .checkmark : .none }
    var jsonProperties: [JSONProperty] { [JSONProperty(name: "done", value: .bool(todo.isDone))] }
}
