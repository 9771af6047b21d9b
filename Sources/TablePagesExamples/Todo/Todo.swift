import GRDB

/// An item of the persisted to-do list, ordered by `position`.
struct Todo: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "todo"

    var id: Int64?
    var title: String
    var isDone: Bool
    var position: Int

    /// The to-dos in list order.
    static func all(_ db: Database) throws -> [Todo] {
        try Todo.order(Column("position"), Column("id")).fetchAll(db)
    }
}
