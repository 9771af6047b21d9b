import TableKit

/// The checklist's delegate: a flat list where selecting an item ticks it, and items can be
/// starred, deleted, reordered and added. Each change is reported to the table through the
/// delegate's narrow context, as a UIKit data source reports to its table view.
final class ChecklistDataSource: ListDataSource<ChecklistItem> {
    private var nextNumber: Int

    init(items: [ChecklistItem]) {
        nextNumber = items.count + 1
        super.init(models: items, sectionID: "items", title: "Items") { item, _ in
            TableCell(.subtitle, ChecklistItemCell(item: item))
        }
    }

    // Only a viewer who may write reads it: it speaks of ticking, which a visitor cannot do.
    override func titleForFooterWithControls(inSection section: Int) -> String? {
        "Select an item to tick it; everyone watching sees it at once."
    }

    override func didSelectRow(at indexPath: TableIndexPath) {
        models[indexPath.row].isDone.toggle()
        tableContext?.reloadRows(at: [indexPath])
    }

    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] {
        [RowAction(name: "star", title: models[indexPath.row].isStarred ? "Unstar" : "Star")]
    }

    override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) {
        guard name == "star" else { return }
        models[indexPath.row].isStarred.toggle()
        tableContext?.reloadRows(at: [indexPath])
    }

    override func canEditRow(at indexPath: TableIndexPath) -> Bool { true }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .delete }
    override func canMoveRow(at indexPath: TableIndexPath) -> Bool { true }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        switch editingStyle {
        case .delete:
            models.remove(at: indexPath.row)
            tableContext?.deleteRows(at: [indexPath])
        case .insert:
            try add(title: values["title"])
        default:
            break
        }
    }

    /// Adds an item titled `title` at the end.
    /// - Throws: ``TitleRequired`` for a blank title, a ``FormFieldProblem`` for one too long (``ItemTitle``).
    func add(title: String?) throws {
        guard let title = try ItemTitle.checked(title) else { throw TitleRequired(item: "item") }
        models.append(ChecklistItem(id: "item-\(nextNumber)", title: title))
        nextNumber += 1
        tableContext?.insertRows(at: [TableIndexPath(section: 0, row: models.count - 1)])
    }

    override func moveRow(from source: TableIndexPath, to destination: TableIndexPath) {
        let item = models.remove(at: source.row)
        models.insert(item, at: destination.row)
    }
}
