import TableKit

/// Shows a book in the built-in subtitle cell: its author below, a checkmark once read, its cover
/// (or a "cover loading" badge) at the leading edge.
struct BookCell: CellDataProvider {
    let book: Book

    var title: String? { book.title }
    var subtitle: String? { book.author }
    var accessory: CellAccessory { book.isRead ? .checkmark : .none }
    var badge: String? { book.cover == nil ? "cover loading" : nil }
    var image: CellImage? {
        book.cover.map { CellImage(url: $0, alt: "", size: .init(width: 40, height: 60)) }
    }
}
