import TableKit
import TablePages

/// A table of the shelf, in one section or one section per genre. Selecting a book marks it read;
/// when the shelf changes, the page's host calls ``reloadFromSource()`` and publishes the rows
/// that differ.
final class ShelfDataSource: SectionsDataSource<Book>, ReloadableDataSource {
    private let shelf: Shelf

    init(shelf: Shelf, byGenre: Bool) {
        self.shelf = shelf
        super.init(models: shelf.books, sectionKey: byGenre ? { $0.genre } : { _ in "All books" }) { book, _ in
            TableCell(.subtitle, BookCell(book: book))
        }
    }

    override func didSelectRow(at indexPath: TableIndexPath) {
        shelf.toggleRead(model(at: indexPath).id)
        models = shelf.books
        tableContext?.reloadRows(at: [indexPath])
    }

    func reloadFromSource() {
        models = shelf.books
    }
}
