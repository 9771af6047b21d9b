import GRDB

/// A person of the people-and-pets example; users have no picture.
struct User: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"
    static let pets = hasMany(Pet.self)

    var id: Int64?
    var name: String
    var email: String
    var city: String
}
