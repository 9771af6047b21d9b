import TableKit

/// Adapts a pet to the same subtitle cell: an avatar, the species, and breed, owner and weight as fields.
struct PetProfile: CellDataProvider {
    let pet: Pet
    let owner: User

    var title: String? { pet.name }
    var subtitle: String? { pet.species }
    var image: CellImage? {
        CellImage(url: "/public/images/pets/" + pet.avatar, alt: pet.name, size: .init(width: 48, height: 48))
    }
    var fields: [CellField] {
        [
            CellField(name: "breed", value: pet.breed),
            CellField(name: "owner", value: owner.name),
            CellField(name: "weight", value: "\(pet.weightKilograms) kg"),
        ]
    }
}
