import TableKit
import TablePages

/// The persisted to-do list: select toggles an item, and items can be added
/// (`POST /pages/todo/sections/todos/rows {"title": …}`), renamed, deleted and reordered.
enum TodoPage {
    static func definition(list: TodoList, changes: ChangeFeed) -> PageDefinition {
        PageDefinition(name: "todo", title: "To do", summary: "A persisted to-do list with a live progress summary.", changes: changes) { variant in
            try TodoRoot(list: list)
        }
    }
}
