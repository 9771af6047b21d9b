import Foundation
import GRDB
import TableKit
import TableStore

/// A to-do list's writes: the shared list's, or one person's (`owner`, an actor's id). Every change
/// goes to the store; the page learns about it from the store's change signal, like any other
/// writer's change. Each write touches only the list's own items, whatever id it is given.
struct TodoList: Sendable {
    let store: Store
    /// Whose list this is; nil for the shared one.
    var owner: String? = nil

    func todos() throws -> [Todo] {
        try store.read { db in try Todo.all(of: owner).fetchAll(db) }
    }

    private func mine(_ db: Database, _ id: Int64) throws -> Todo? {
        try Todo.owned(by: owner).filter(key: id).fetchOne(db)
    }

    func toggle(_ id: Int64) throws {
        try store.write { db in
            guard var todo = try mine(db, id) else { return }
            todo.isDone.toggle()
            try todo.update(db)
        }
    }

    func add(title: String) throws {
        try store.write { db in
            let last = try Todo.owned(by: owner).select(max(Column("position")), as: Int.self).fetchOne(db) ?? -1
            try Todo(id: nil, title: title, isDone: false, position: last + 1, owner: owner).insert(db)
        }
    }

    func rename(_ id: Int64, to title: String) throws {
        try store.write { db in
            guard var todo = try mine(db, id) else { return }
            todo.title = title
            try todo.update(db)
        }
    }

    func delete(_ id: Int64) throws {
        _ = try store.write { db in try Todo.owned(by: owner).filter(key: id).deleteAll(db) }
    }

    /// Stores `ids` as the list's order.
    func reorder(_ ids: [Int64]) throws {
        try store.write { db in
            for (position, id) in ids.enumerated() {
                try Todo.owned(by: owner).filter(key: id).updateAll(db, Column("position").set(to: position))
            }
        }
    }

    /// The most bytes of UTF-8 a title keeps; longer titles are cut.
    static let maxTitleBytes = 400

    /// A title as people typed it, cut to ``maxTitleBytes``, or nil when there is nothing left
    /// after trimming.
    static func cleanTitle(_ text: String?) -> String? {
        let trimmed = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(maxUTF8Count: maxTitleBytes))
    }
}
