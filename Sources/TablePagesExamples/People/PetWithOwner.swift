import GRDB

/// A pet joined with its owner, as the people page shows it.
struct PetWithOwner: Decodable, Hashable, Sendable, FetchableRecord {
    var pet: Pet
    var owner: User

    /// Every pet with its owner, by name.
    static func all(_ db: Database) throws -> [PetWithOwner] {
        try Pet.including(required: Pet.owner).order(Column("name")).asRequest(of: PetWithOwner.self).fetchAll(db)
    }
}
