import GRDB

/// The place the destination page describes, with how many of its reviews are shown.
struct Destination: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "destination"
    static let reviews = hasMany(Review.self)

    var id: Int64?
    var name: String
    var location: String
    var summary: String
    /// Image addresses, under `/public/`.
    var photo: String
    var map: String
    var latitude: Double
    var longitude: Double
    var address: String
    var website: String
    var phone: String
    /// Out of 5.
    var rating: Double
    /// Reviews listed so far; "Load more" raises it, and every viewer sees the longer list.
    var shownReviews: Int
}
