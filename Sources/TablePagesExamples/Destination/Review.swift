import GRDB

/// A visitor's review of a ``Destination``.
struct Review: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "review"

    var id: Int64?
    var destinationId: Int64
    var author: String
    var stars: Int
    var text: String
    var position: Int
}
