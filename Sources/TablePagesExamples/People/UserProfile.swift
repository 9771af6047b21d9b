import TableKit

/// Adapts a user to the reusable subtitle cell: no image, so the image area collapses.
struct UserProfile: CellDataProvider {
    let user: User
    let petCount: Int

    var title: String? { user.name }
    var subtitle: String? { user.email }
    var fields: [CellField] { [CellField(name: "city", value: user.city)] }
    var badge: String? { petCount == 0 ? nil : petCount == 1 ? "1 pet" : "\(petCount) pets" }
}
