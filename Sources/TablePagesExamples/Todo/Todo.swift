import GRDB

/// An item of a persisted to-do list, ordered by `position`: the shared list's (no owner) or one
/// person's (the id of the actor whose list it is).
struct Todo: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "todo"

    var id: Int64?
    var title: String
    var isDone: Bool
    var position: Int
    var owner: String? = nil

    /// The to-dos of `owner`'s list (nil: the shared list).
    static func owned(by owner: String?) -> QueryInterfaceRequest<Todo> {
        Todo.filter(Column("owner") == owner)
    }

    /// The to-dos of `owner`'s list, in list order.
    static func all(of owner: String?) -> QueryInterfaceRequest<Todo> {
        owned(by: owner).order(Column("position"), Column("id"))
    }
}
