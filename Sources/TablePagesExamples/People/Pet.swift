import GRDB

/// A pet, owned by a ``User``.
struct Pet: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pet"
    static let owner = belongsTo(User.self, key: "owner")

    var id: Int64?
    var name: String
    var species: String
    var breed: String
    var weightKilograms: Double
    /// The avatar's file name under `Public/images/pets/`.
    var avatar: String
    var userId: Int64
}
