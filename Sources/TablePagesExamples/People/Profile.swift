import TableKit
import TableStore

/// A row of the people page: a user or a pet, each shown through its own data provider.
enum Profile: Identifiable, Sendable {
    case user(User, petCount: Int)
    case pet(PetWithOwner)

    var id: String {
        switch self {
        case .user(let user, _): "user-\(user.id ?? 0)"
        case .pet(let pet): "pet-\(pet.pet.id ?? 0)"
        }
    }

    /// The section the row belongs to.
    var group: String {
        switch self {
        case .user: "People"
        case .pet: "Pets"
        }
    }

    /// What the row shows, in the same reusable cell kind for both, filled by different providers.
    var content: CellContent {
        switch self {
        case .user(let user, let petCount): CellContent(UserProfile(user: user, petCount: petCount))
        case .pet(let pet): CellContent(PetProfile(pet: pet.pet, owner: pet.owner))
        }
    }

    /// People by name, then pets by name.
    static func all(_ db: any SQLSession) throws -> [Profile] {
        let pets = try PetWithOwner.all(db)
        let people: [Profile] = try User.all(db).map { user in
            .user(user, petCount: pets.count(where: { $0.owner.id == user.id }))
        }
        return people + pets.map(Profile.pet)
    }
}
