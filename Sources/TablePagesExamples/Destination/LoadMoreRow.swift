import TableKit

/// The "Load more" row at the foot of the reviews: selecting it asks the store for more reviews,
/// and the refresh that follows appends them to every open page.
final class LoadMoreRow: CascadingBareTableDelegate {
    var remaining = 0
    private let guide: DestinationGuide

    init(guide: DestinationGuide) {
        self.guide = guide
        super.init()
    }

    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { "load-more" }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        TableCell(.button, CellContent(title: "Load \(min(remaining, DestinationGuide.pageSize)) more reviews (\(remaining) not shown)"))
    }

    override func didSelectRow(at indexPath: TableIndexPath) throws {
        try guide.showMoreReviews()
    }
}
