import TableStore

/// A person of the people-and-pets example; users have no picture.
struct User: Hashable, Sendable {
    var id: Int64?
    var name: String
    var email: String
    var city: String

    /// The columns ``init(row:at:)`` reads, of the table `"user"` (quoted: a reserved word in PostgreSQL).
    static let columns = #""user".id, "user".name, "user".email, "user".city"#

    /// The user whose columns start at `offset`.
    init(row: SQLRow, at offset: Int = 0) throws {
        self.init(id: try row.int64(offset), name: try row.string(offset + 1), email: try row.string(offset + 2), city: try row.string(offset + 3))
    }

    init(id: Int64?, name: String, email: String, city: String) {
        (self.id, self.name, self.email, self.city) = (id, name, email, city)
    }

    /// Everyone, by name.
    static func all(_ db: any SQLSession) throws -> [User] {
        try db.rows("SELECT \(columns) FROM \"user\" ORDER BY \"user\".name, \"user\".id").map { try User(row: $0) }
    }
}
