import TablePagesDatabase
import TableStore

/// The destination page's data: the place, the reviews shown so far, and the one write the page
/// makes, showing more reviews.
struct DestinationGuide: Sendable {
    /// How many more reviews "Load more" shows.
    static let pageSize = 5

    /// What the page shows: the place, the reviews shown so far, and how many there are.
    struct Reading: Sendable {
        let destination: Destination
        let reviews: [Review]
        let reviewCount: Int
    }

    /// The store, as the page observes it.
    let data: ExampleData

    /// The place with its shown reviews and the total count, or nil when the database has no place.
    static func read(_ db: any SQLSession) throws -> Reading? {
        guard let destination = try Destination.first(db), let id = destination.id else { return nil }
        return Reading(destination: destination, reviews: try Review.first(destination.shownReviews, of: id, db), reviewCount: try Review.count(of: id, db))
    }

    /// Shows ``pageSize`` more reviews, to everyone watching.
    func showMoreReviews() throws {
        try data.transaction { db in
            try db.execute(
                "UPDATE destination SET shownReviews = shownReviews + ? WHERE id = (SELECT min(id) FROM destination)",
                [.integer(Self.pageSize)]
            )
        }
    }
}
