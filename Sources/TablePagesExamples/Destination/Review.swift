import TableStore

/// A visitor's review of a ``Destination``.
struct Review: Hashable, Sendable {
    var id: Int64?
    var destinationId: Int64
    var author: String
    var stars: Int
    var text: String
    var position: Int

    /// The first `limit` reviews of a destination, in their order.
    static func first(_ limit: Int, of destinationID: Int64, _ db: any SQLSession) throws -> [Review] {
        let sql = "SELECT id, destinationId, author, stars, text, position FROM review WHERE destinationId = ? ORDER BY position, id LIMIT ?"
        return try db.rows(sql, [.integer(destinationID), .integer(limit)]).map { row in
            Review(id: try row.int64(0), destinationId: try row.int64(1), author: try row.string(2), stars: try row.int(3), text: try row.string(4), position: try row.int(5))
        }
    }

    /// How many reviews a destination has.
    static func count(of destinationID: Int64, _ db: any SQLSession) throws -> Int {
        try db.row("SELECT count(*) FROM review WHERE destinationId = ?", [.integer(destinationID)])?.int(0) ?? 0
    }
}
