import TableKit
import TablePages

/// The in-memory checklist: the smallest live page. Select ticks an item for everyone watching;
/// star, delete, move and add (the form under the list) work the same way. Its state lives in the
/// server process.
public enum ChecklistPage {
    /// The page definition, with a fresh list for each server.
    public static func definition() -> PageDefinition {
        PageDefinition(name: "checklist", title: "Checklist", summary: "An in-memory to-do list: tick, star, reorder, add.") { _ in
            let items = ["Water the plants", "Buy coffee", "Call the plumber", "Write the release notes"].enumerated().map {
                ChecklistItem(id: "item-\($0.offset + 1)", title: $0.element)
            }
            let list = ChecklistDataSource(items: items)
            return CascadingRootTableDelegate(childDelegates: [list, AddSection(row: "add-item", prompt: "New item", fields: [ItemTitle.field]) { try list.add(title: $0["title"]) }])
        }
    }
}
