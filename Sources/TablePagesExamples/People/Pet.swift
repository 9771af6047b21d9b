import TableStore

/// A pet, owned by a ``User``.
struct Pet: Hashable, Sendable {
    var id: Int64?
    var name: String
    var species: String
    var breed: String
    var weightKilograms: Double
    /// The avatar's file name under `Public/images/pets/`.
    var avatar: String
    var userId: Int64

    /// The columns ``init(row:)`` reads.
    static let columns = "pet.id, pet.name, pet.species, pet.breed, pet.weightKilograms, pet.avatar, pet.userId"

    init(row: SQLRow) throws {
        self.init(
            id: try row.int64(0), name: try row.string(1), species: try row.string(2), breed: try row.string(3),
            weightKilograms: try row.double(4), avatar: try row.string(5), userId: try row.int64(6)
        )
    }

    init(id: Int64?, name: String, species: String, breed: String, weightKilograms: Double, avatar: String, userId: Int64) {
        (self.id, self.name, self.species, self.breed, self.weightKilograms, self.avatar, self.userId) = (id, name, species, breed, weightKilograms, avatar, userId)
    }
}
