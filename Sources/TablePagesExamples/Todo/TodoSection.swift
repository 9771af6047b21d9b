import TablePages

/// The section of to-dos: one ``TodoRow`` per item, kept across reads by the item's id. New items
/// are committed here (the insert route addresses the section); moves reorder the rows here,
/// where all of them are known.
final class TodoSection: ObservedSection<Todo> {
    private let list: TodoList
    // Only a viewer who may write reads it: it speaks of ticking, which a visitor cannot do.
    private let footerWithControls: String

    init(list: TodoList) {
        self.list = list
        footerWithControls = list.owner == nil
            ? "Select a to-do to tick it. A title has at most \(ItemTitle.maxLength) characters. Everyone watching sees the change."
            // A browser signed in with the link is an actor of its own (`session:…`), and the list
            // is kept per actor: say so, rather than promise the list in every browser.
            : "Your own list: select a to-do to tick it. A title has at most \(ItemTitle.maxLength) characters. "
                + "It belongs to this sign-in: only this browser sees it, "
                + "and another browser signed in with the link has a list of its own."
        super.init(id: "todos", header: "To do") { todo in TodoRow(todo: todo, list: list) }
    }

    override func titleForFooterWithControls(inSection section: Int) -> String? { footerWithControls }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        guard editingStyle == .insert else {
            try super.commit(editingStyle, forRowAt: indexPath, values: values)
            return
        }
        guard let title = try ItemTitle.checked(values["title"]) else { throw TitleRequired(item: "to-do") }
        try list.add(title: title)
    }

    /// Moves stay inside this section.
    override func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath {
        proposed.section == index ? proposed : source
    }

    override func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {
        // The store keeps the new order first: when it refuses, the rows stay as they were and
        // the table records no move. The table records the move itself, so the rows must be in
        // their new order when it reads them back.
        var moved = rows
        moved.insert(moved.remove(at: source.row), at: destination.row)
        try list.reorder(moved.map { $0.item.id ?? 0 })
        reorder(moved)
    }
}
