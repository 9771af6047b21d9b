import TableKit

/// Adapts a checklist item to the reusable subtitle cell: a checkmark when done, a star badge.
struct ChecklistItemCell: CellDataProvider {
    let item: ChecklistItem

    var title: String? { item.title }
    var subtitle: String? { item.isDone ? "done" : "to do" }
    var accessory: CellAccessory { item.isDone ? .checkmark : .none }
    var badge: String? { item.isStarred ? "★" : nil }
}
