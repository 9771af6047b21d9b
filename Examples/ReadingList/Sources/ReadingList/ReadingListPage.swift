import TablePages
import TablePagesDatabase

/// The reading list, `/pages/reading`: the books in three sections, one per shelf, read again
/// whenever the database changes, so a book moves between them live, whoever moved it. The first
/// section ends with the form that adds a book.
enum ReadingListPage {
    static func definition(store: Store) -> PageDefinition {
        PageDefinition(name: "reading", title: "Reading list", summary: "Books to read, being read and read.", cellKinds: [BookRow.kind]) { _ in
            let shelves = Book.Shelf.allCases.map { shelf in
                shelf == .toRead
                    ? ObservedSection(id: .init(shelf.rawValue), header: shelf.title, adding: Book.fields, prompt: "Add a book", add: { values in
                        try Book.add(values, to: store)
                    }) { book in BookRow(item: book) }
                    : ObservedSection(id: .init(shelf.rawValue), header: shelf.title) { book in BookRow(item: book) }
            }
            return ObservedSource(store, fetch: { db in try Book.all(db) }, sections: shelves) { books in
                for (shelf, section) in zip(Book.Shelf.allCases, shelves) {
                    section.show(books.filter { $0.shelf == shelf })
                }
            }
        }
    }
}
