import GRDB
import TableStore

/// The destination page's data: the place, the reviews shown so far, and the one write the page
/// makes, showing more reviews.
struct DestinationGuide: Sendable {
    /// How many more reviews "Load more" shows.
    static let pageSize = 5

    let store: Store

    /// The place with its shown reviews and the total count, or nil when the database has no place.
    func read() throws -> (destination: Destination, reviews: [Review], reviewCount: Int)? {
        try store.read { db in
            guard let destination = try Destination.order(Column("id")).fetchOne(db) else { return nil }
            let all = destination.request(for: Destination.reviews)
            let shown = try all.order(Column("position")).limit(destination.shownReviews).fetchAll(db)
            return (destination, shown, try all.fetchCount(db))
        }
    }

    /// Shows ``pageSize`` more reviews, to everyone watching.
    func showMoreReviews() throws {
        try store.write { db in
            guard var destination = try Destination.order(Column("id")).fetchOne(db) else { return }
            destination.shownReviews += Self.pageSize
            try destination.update(db)
        }
    }
}
