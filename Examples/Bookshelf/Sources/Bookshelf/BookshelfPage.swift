import TablePages

/// The bookshelf page, `/pages/books`: every book in one list (`?layout=list`, the default) or
/// grouped by genre (`?layout=genres`). Selecting a book marks it read, for everyone watching.
enum BookshelfPage {
    /// The page over `shelf`: each variant shows the books as they are in it, and again after every change.
    static func definition(shelf: MemoryStore<[Book]>) -> PageDefinition {
        PageDefinition(
            name: "books", title: "Bookshelf", summary: "Twenty books: select one to mark it read.",
            variants: ["layout": ["list", "genres"]]
        ) { variant in
            let byGenre = variant["layout"] == "genres"
            return ObservedSource(shelf, kind: .subtitle, section: { book in
                byGenre ? (id: book.genreID, title: book.genre) : (id: "books", title: "All books")
            }) { book in
                CellContent(
                    title: book.title, subtitle: book.author, accessory: book.isRead ? .checkmark : .none,
                    image: book.cover.map { .init(url: $0, alt: "", size: .init(width: 40, height: 60)) },
                    badge: book.cover == nil ? "cover loading" : nil
                )
            } select: { book in
                shelf.update { books in
                    if let index = books.firstIndex(where: { $0.id == book.id }) { books[index].isRead.toggle() }
                }
            }
        }
    }

    /// The cover every book gets once it has "loaded", served at `/public/bookshelf/cover.svg`.
    static let cover = Array("""
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="60" viewBox="0 0 40 60">\
        <rect width="40" height="60" rx="3" fill="#7a4b2a"/><rect x="6" y="8" width="28" height="4" fill="#e8d5b0"/>\
        </svg>
        """.utf8)
}
