import Foundation
import TablePagesDatabase
import TableStore

/// A to-do list's writes: the shared list's, or one person's (`owner`, an actor's id). Every change
/// goes to the store; the page learns about it from the store's change signal, like any other
/// writer's change. Each write touches only the list's own items, whatever id it is given.
struct TodoList: Sendable {
    /// The store the pages observe and the list writes to.
    let data: ExampleData
    /// Whose list this is; nil for the shared one.
    var owner: String? = nil

    /// Runs `sql` on the list's item `id`: `sql` ends in a WHERE clause that the list's own
    /// condition is appended to.
    private func update(_ sql: String, _ arguments: [SQLValue], item id: Int64) throws {
        let (condition, owned) = Todo.owned(by: owner)
        try data.transaction { db in try db.execute(sql + " AND " + condition, arguments + [.integer(id)] + owned) }
    }

    func toggle(_ id: Int64) throws {
        try update("UPDATE todo SET isDone = NOT isDone WHERE id = ?", [], item: id)
    }

    func add(title: String) throws {
        let (condition, owned) = Todo.owned(by: owner)
        try data.transaction { db in
            let last = try db.row("SELECT max(position) FROM todo WHERE \(condition)", owned)?.optionalInt64(0) ?? -1
            try db.execute(
                "INSERT INTO todo (title, isDone, position, owner) VALUES (?, ?, ?, ?)",
                [.text(title), .bool(false), .integer(last + 1), .text(owner)]
            )
        }
    }

    func rename(_ id: Int64, to title: String) throws {
        try update("UPDATE todo SET title = ? WHERE id = ?", [.text(title)], item: id)
    }

    func delete(_ id: Int64) throws {
        try update("DELETE FROM todo WHERE id = ?", [], item: id)
    }

    /// Stores `ids` as the list's order.
    func reorder(_ ids: [Int64]) throws {
        let (condition, owned) = Todo.owned(by: owner)
        try data.transaction { db in
            for (position, id) in ids.enumerated() {
                try db.execute("UPDATE todo SET position = ? WHERE id = ? AND \(condition)", [.integer(position), .integer(id)] + owned)
            }
        }
    }
}
