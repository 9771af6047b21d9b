import TablePages

/// The to-do page's root: a progress summary section above the list. Both show the to-dos read
/// in one snapshot, so a toggle sends the toggled row and the summary, nothing else. The list
/// ends with a form that adds a to-do: the page says "add", so it has a place to do it.
final class TodoRoot: ObservedSource<[Todo]> {
    private let progress = StaticRow(id: "progress", cell: .blank)
    private let items: TodoSection

    init(list: TodoList) {
        items = TodoSection(list: list)
        let summary = StaticSection(id: "summary", header: "Progress", rows: [progress])
        let add = AddSection(row: "add-todo", prompt: "New to-do", fields: [ItemTitle.field]) { values in
            guard let title = try ItemTitle.checked(values["title"]) else { throw TitleRequired(item: "to-do") }
            try list.add(title: title)
        }
        super.init(list.data, fetch: { db in try Todo.all(of: list.owner, db) }, sections: [summary, items, add])
    }

    override func show(_ todos: [Todo]) {
        items.show(todos)
        // An empty list is not "0 of 0 done · 100 %": nothing is done, there is just nothing yet.
        guard !todos.isEmpty else {
            progress.cell = TableCell(.value, CellContent(title: "Nothing to do yet"))
            return
        }
        let done = todos.filter(\.isDone).count
        let percent = done * 100 / todos.count
        // The numbers beside the text, for scripts; `progress` is the fraction the text shows.
        let values = [
            JSONProperty(name: "completed", value: .integer(done)),
            JSONProperty(name: "total", value: .integer(todos.count)),
            JSONProperty(name: "progress", value: .number(Double(percent) / 100)),
        ]
        progress.cell = TableCell(.value, CellContent(title: "\(done) of \(todos.count) done", detail: "\(percent) %", jsonProperties: values))
    }
}
