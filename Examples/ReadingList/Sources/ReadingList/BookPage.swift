import TablePages
import TablePagesDatabase

/// A book's own page, `/pages/book?id=3`: its title and author, a link back to the list, and its
/// shelves, of which a signed-in viewer selects one to move the book there, live on every page.
enum BookPage {
    /// One line of the page: the book, the way back, or a shelf.
    struct Line: Identifiable {
        let id: String
        let title: String
        var subtitle: String?
        var isChecked = false
        var shelf: Book.Shelf?
        var link: String?
    }

    static func definition(store: Store) -> PageDefinition {
        PageDefinition(
            name: "book", title: "Book", summary: "One book, and the shelf it is on.",
            resolveVariant: { query in ["id": query["id"] ?? ""] }, isListed: false
        ) { variant in
            let id = Int64(variant["id"] ?? "") ?? 0
            return ObservedSource(store, fetch: { db in lines(try Book.all(db, id: id)) }, kind: .subtitle, section: { line in
                line.shelf == nil ? (id: "book", title: nil) : (id: "shelf", title: "Shelf")
            }) { line in
                CellContent(title: line.title, subtitle: line.subtitle, accessory: line.isChecked ? .checkmark : line.link == nil ? .none : .disclosureIndicator)
            } select: { line in
                if let shelf = line.shelf { try Book.move(id, to: shelf, in: store) }
            } link: { line in
                line.link
            }
        }
    }

    /// The page's lines for `books` (the book, or none when no book has the id).
    static func lines(_ books: [Book]) -> [Line] {
        guard let book = books.first else { return [Line(id: "missing", title: "No book has this id.", link: "/pages/reading")] }
        return [Line(id: "book", title: book.title, subtitle: book.author), Line(id: "back", title: "All books", link: "/pages/reading")]
            + Book.Shelf.allCases.map { Line(id: $0.rawValue, title: $0.title, isChecked: $0 == book.shelf, shelf: $0) }
    }
}
