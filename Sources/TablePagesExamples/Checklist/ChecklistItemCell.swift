import TableKit

/// Adapts a checklist item to the reusable subtitle cell: a checkmark when done, a star badge;
/// both as booleans in JSON for scripts.
struct ChecklistItemCell: CellDataProvider {
    let item: ChecklistItem

    var title: String? { item.title }
    var subtitle: String? { item.isDone ? "done" : "to do" }
    var accessory: CellAccessory { item.isDone ? .checkmark : .none }
    var badge: String? { item.isStarred ? "★" : nil }
    var jsonProperties: [JSONProperty] {
        [JSONProperty(name: "done", value: .bool(item.isDone)), JSONProperty(name: "starred", value: .bool(item.isStarred))]
    }
}
