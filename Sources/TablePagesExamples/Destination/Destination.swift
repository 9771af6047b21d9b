import TableStore

/// The place the destination page describes, with how many of its reviews are shown.
struct Destination: Hashable, Sendable {
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

    /// The first place, or nil when there is none.
    static func first(_ db: any SQLSession) throws -> Destination? {
        let sql = """
            SELECT id, name, location, summary, photo, map, latitude, longitude, address, website, phone, rating, shownReviews
            FROM destination ORDER BY id LIMIT 1
            """
        return try db.row(sql).map { row in
            Destination(
                id: try row.int64(0), name: try row.string(1), location: try row.string(2), summary: try row.string(3),
                photo: try row.string(4), map: try row.string(5), latitude: try row.double(6), longitude: try row.double(7),
                address: try row.string(8), website: try row.string(9), phone: try row.string(10), rating: try row.double(11),
                shownReviews: try row.int(12)
            )
        }
    }
}
