import TableStore

/// An item of a persisted to-do list, ordered by `position`: the shared list's (no owner) or one
/// person's (the id of the actor whose list it is).
struct Todo: Identifiable, Hashable, Sendable {
    var id: Int64?
    var title: String
    var isDone: Bool
    var position: Int
    var owner: String? = nil

    /// The condition that selects `owner`'s list (nil: the shared list) and its argument; SQL's
    /// `= NULL` matches nothing, so the shared list is `IS NULL`.
    static func owned(by owner: String?) -> (condition: String, arguments: [SQLValue]) {
        owner.map { ("owner = ?", [.text($0)]) } ?? ("owner IS NULL", [])
    }

    /// The to-dos of `owner`'s list, in list order.
    static func all(of owner: String?, _ db: any SQLSession) throws -> [Todo] {
        let (condition, arguments) = owned(by: owner)
        return try db.rows("SELECT id, title, isDone, position, owner FROM todo WHERE \(condition) ORDER BY position, id", arguments).map { row in
            Todo(id: try row.int64(0), title: try row.string(1), isDone: try row.bool(2), position: try row.int(3), owner: try row.optionalString(4))
        }
    }
}
