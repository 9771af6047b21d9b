import TableStore

/// The destination page's data: the place, the reviews shown so far, and the one write the page
/// makes, showing more reviews.
struct DestinationGuide: Sendable {
    /// How many more reviews "Load more" shows.
    static let pageSize = 5

    let store: any SQLStore

    /// The place with its shown reviews and the total count, or nil when the database has no place.
    func read() throws -> (destination: Destination, reviews: [Review], reviewCount: Int)? {
        try store.snapshot { db in
            guard let destination = try Destination.first(db), let id = destination.id else { return nil }
            return (destination, try Review.first(destination.shownReviews, of: id, db), try Review.count(of: id, db))
        }
    }

    /// Shows ``pageSize`` more reviews, to everyone watching.
    func showMoreReviews() throws {
        try store.transaction { db in
            try db.execute(
                "UPDATE destination SET shownReviews = shownReviews + ? WHERE id = (SELECT min(id) FROM destination)",
                [.integer(Self.pageSize)]
            )
        }
    }
}
