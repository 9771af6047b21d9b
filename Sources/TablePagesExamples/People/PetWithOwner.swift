import TableStore

/// A pet joined with its owner, as the people page shows it.
struct PetWithOwner: Hashable, Sendable {
    var pet: Pet
    var owner: User

    /// Every pet with its owner, by name.
    static func all(_ db: any SQLSession) throws -> [PetWithOwner] {
        let sql = "SELECT \(Pet.columns), \(User.columns) FROM pet JOIN \"user\" ON \"user\".id = pet.userId ORDER BY pet.name, pet.id"
        return try db.rows(sql).map { row in PetWithOwner(pet: try Pet(row: row), owner: try User(row: row, at: 7)) }
    }
}
