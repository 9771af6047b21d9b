import TablePages
import TablePagesDatabase

/// The persisted to-do list: select toggles an item, and items can be added
/// (`POST /pages/todo/sections/todos/rows {"title": …}`), renamed, deleted and reordered.
enum TodoPage {
    static func definition(list: TodoList) -> PageDefinition {
        PageDefinition(name: "todo", title: "To do", summary: "A persisted to-do list: add, tick, rename, reorder; with a live progress summary.") { variant in
            TodoRoot(list: list)
        }
    }

    /// `/pages/mine`: each sign-in's own to-do list, stored per actor id (a browser signed in with
    /// the link is an actor of its own, so each browser has its own list). A per-viewer
    /// page: every viewer has a table (and a live stream) of their own, and anonymous clients get 401.
    static func personalDefinition(data: ExampleData) -> PageDefinition {
        PageDefinition(
            name: "mine", title: "My to-dos", summary: "Your own to-do list: sign in, and only this browser sees it.",
            access: .private, perViewer: true
        ) { variant in
            guard let viewer = variant.viewer else {
                // The service refuses anonymous viewers of a per-viewer page before it builds one.
                throw PageDefinition.VariantError(message: "Sign in to see your to-do list.")
            }
            return TodoRoot(list: TodoList(data: data, owner: viewer.id))
        }
    }
}
