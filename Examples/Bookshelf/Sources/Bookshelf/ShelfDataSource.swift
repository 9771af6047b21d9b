import TableKit

/// One table of the shelf, in one section or one section per genre. Selecting a book marks it
/// read; each cover loads in a background task and then updates its row.
final class ShelfDataSource: SectionsDataSource<Book> {
    private var coverLoading: Task<Void, Never>?

    init(books: [Book], byGenre: Bool) {
        super.init(models: books, section: byGenre ? { (id: $0.genreID, title: $0.genre) } : { _ in (id: "books", title: "All books") }) { book, _ in
            TableCell(.subtitle, BookCell(book: book))
        }
    }

    deinit {
        coverLoading?.cancel()
    }

    override func prepare(table: any TableContext) {
        super.prepare(table: table)
        guard coverLoading == nil else { return }
        // The task may not touch `self`: the data source lives inside its table's isolation.
        // It gets the table's updater instead, which runs each change there.
        let (updater, ids) = (table.updater, models.map(\.id))
        coverLoading = Task {
            for id in ids {
                // A download would go here; a cover takes 400 ms to "load".
                guard (try? await Task.sleep(for: .milliseconds(400))) != nil else { return }
                let cover = "/public/bookshelf/cover.svg"
                let queued = updater.updateRow(RowID(id), of: ShelfDataSource.self) { shelf in
                    shelf.update(id) { $0.cover = cover }
                }
                guard queued else { return }   // the table is gone
            }
        }
    }

    override func didSelectRow(at indexPath: TableIndexPath) {
        update(model(at: indexPath).id) { $0.isRead.toggle() }
        tableContext?.reloadRows(at: [indexPath])
    }

    private func update(_ id: Book.ID, _ change: (inout Book) -> Void) {
        guard let index = models.firstIndex(where: { $0.id == id }) else { return }
        change(&models[index])
    }
}
