import MicroHTTP
import TableKit
import TablePages

/// The bookshelf page, `/pages/books`: every book in one list (`?layout=list`, the default) or
/// grouped by genre (`?layout=genres`).
enum BookshelfPage {
    /// The page definition; each variant's table starts with the twenty sample books.
    static func definition() -> PageDefinition {
        PageDefinition(
            name: "books", title: "Bookshelf", summary: "Twenty books: select one to mark it read.",
            variants: ["layout": ["list", "genres"]]
        ) { variant in
            ShelfDataSource(books: Book.samples, byGenre: variant["layout"] == "genres")
        }
    }

    /// The page's own files, built into the program and served under `/public/`.
    static let publicFiles = BuiltInFiles([
        "bookshelf/cover.svg": Array("""
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="60" viewBox="0 0 40 60">\
            <rect width="40" height="60" rx="3" fill="#7a4b2a"/><rect x="6" y="8" width="28" height="4" fill="#e8d5b0"/>\
            </svg>
            """.utf8),
    ])
}
