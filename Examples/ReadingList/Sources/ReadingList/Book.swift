import TablePages
import TablePagesDatabase

/// A book of the reading list: a row of the `book` table.
struct Book: Identifiable, Sendable {
    /// The three shelves a book moves between, in the page's order.
    enum Shelf: String, CaseIterable, Sendable {
        case toRead = "to-read", reading, done

        /// The shelf's heading.
        var title: String {
            switch self {
            case .toRead: "To read"
            case .reading: "Reading"
            case .done: "Done"
            }
        }
    }

    let id: Int64
    var title: String
    var author: String
    var shelf: Shelf

    /// The schema, one migration per change: each runs once, in order, and is never edited after.
    static let migrations: KeyValuePairs = [
        "create book": """
            CREATE TABLE book (
                id INTEGER PRIMARY KEY,
                title TEXT NOT NULL,
                author TEXT NOT NULL,
                shelf TEXT NOT NULL DEFAULT 'to-read' CHECK (shelf IN ('to-read', 'reading', 'done'))
            )
            """,
        "first books": """
            INSERT INTO book (title, author, shelf) VALUES
                ('Middlemarch', 'George Eliot', 'reading'),
                ('The Left Hand of Darkness', 'Ursula K. Le Guin', 'to-read'),
                ('Things Fall Apart', 'Chinua Achebe', 'to-read'),
                ('The Remains of the Day', 'Kazuo Ishiguro', 'done')
            """,
    ]

    /// The add form's two fields, checked by the library before ``add(_:to:)`` sees them.
    static let fields = [
        FormField(name: "title", label: "Title", isRequired: true, maxLength: 120),
        FormField(name: "author", label: "Author", isRequired: true, maxLength: 80),
    ]

    /// Every book in the order they were added, or (`id` given) the one book with that id, if any.
    static func all(_ db: any SQLSession, id: Int64 = 0) throws -> [Book] {
        try db.rows("SELECT id, title, author, shelf FROM book WHERE ?1 = 0 OR id = ?1 ORDER BY id", [.integer(id)]).map { row in
            Book(id: try row.int64(0), title: try row.string(1), author: try row.string(2), shelf: Shelf(rawValue: try row.string(3)) ?? .toRead)
        }
    }

    /// Adds a book to read with the add form's values.
    static func add(_ values: [String: String], to store: Store) throws {
        try store.transaction { db in
            try db.execute("INSERT INTO book (title, author) VALUES (?, ?)", [.text(values["title"] ?? ""), .text(values["author"] ?? "")])
        }
    }

    /// Puts book `id` on `shelf`.
    static func move(_ id: Int64, to shelf: Shelf, in store: Store) throws {
        try store.transaction { db in try db.execute("UPDATE book SET shelf = ? WHERE id = ?", [.text(shelf.rawValue), .integer(id)]) }
    }
}
