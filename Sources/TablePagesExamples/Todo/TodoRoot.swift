import TableKit
import TablePages

/// The to-do page's root: a progress summary section above the list. Both are re-read from the
/// store when it changes, so a toggle sends the toggled row and the summary, nothing else.
final class TodoRoot: CascadingRootTableDelegate, ReloadableDataSource {
    private let list: TodoList
    private let progress = StaticRow(id: "progress", cell: .blank)
    private let items: TodoSection

    init(list: TodoList) throws {
        self.list = list
        items = TodoSection(list: list)
        super.init(childDelegates: [StaticSection(id: "summary", header: "Progress", rows: [progress]), items])
        try reloadFromSource()
    }

    func reloadFromSource() throws {
        let todos = try list.todos()
        items.show(todos)
        let done = todos.filter(\.isDone).count
        let percent = todos.isEmpty ? 100 : done * 100 / todos.count
        progress.cell = TableCell(.value, CellContent(title: "\(done) of \(todos.count) done", detail: "\(percent) %"))
    }
}
