/// One book on the shelf.
struct Book: Identifiable, Sendable, Equatable {
    let id: String
    let title: String
    let author: String
    let genre: String
    var isRead = false
    /// The cover's address once it has loaded; nil while it is loading.
    var cover: String?

    /// The genre's section identifier: `science-fiction` for "Science fiction".
    var genreID: String { genre.lowercased().split(separator: " ").joined(separator: "-") }

    /// The twenty books the example starts with.
    static let samples: [Book] = [
        ("The Hobbit", "J. R. R. Tolkien", "Fantasy"),
        ("A Wizard of Earthsea", "Ursula K. Le Guin", "Fantasy"),
        ("The Name of the Wind", "Patrick Rothfuss", "Fantasy"),
        ("Mistborn", "Brandon Sanderson", "Fantasy"),
        ("Jonathan Strange & Mr Norrell", "Susanna Clarke", "Fantasy"),
        ("Dune", "Frank Herbert", "Science fiction"),
        ("The Left Hand of Darkness", "Ursula K. Le Guin", "Science fiction"),
        ("Neuromancer", "William Gibson", "Science fiction"),
        ("Hyperion", "Dan Simmons", "Science fiction"),
        ("The Three-Body Problem", "Liu Cixin", "Science fiction"),
        ("The Hound of the Baskervilles", "Arthur Conan Doyle", "Mystery"),
        ("Murder on the Orient Express", "Agatha Christie", "Mystery"),
        ("The Big Sleep", "Raymond Chandler", "Mystery"),
        ("The Name of the Rose", "Umberto Eco", "Mystery"),
        ("Gone Girl", "Gillian Flynn", "Mystery"),
        ("Pride and Prejudice", "Jane Austen", "Classics"),
        ("Moby-Dick", "Herman Melville", "Classics"),
        ("Middlemarch", "George Eliot", "Classics"),
        ("Anna Karenina", "Leo Tolstoy", "Classics"),
        ("Don Quixote", "Miguel de Cervantes", "Classics"),
    ].enumerated().map { Book(id: "book-\($0.offset + 1)", title: $0.element.0, author: $0.element.1, genre: $0.element.2) }
}
