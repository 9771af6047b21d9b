import TableKit

/// The reading list's books: each shows its author, and its "Save" form edits both fields.
final class ReadingListSource: ListDataSource<Book> {
    /// The form of a book, to add one or edit one: a required title and an optional author.
    static func fields(title: String = "", author: String = "") -> [FormField] {
        [FormField(name: "title", label: "Title", isRequired: true, defaultValue: title, maxLength: 120),
         FormField(name: "author", label: "Author", defaultValue: author, maxLength: 80)]
    }

    private var nextNumber: Int

    init(books: [Book]) {
        nextNumber = books.count + 1
        super.init(models: books, sectionID: "books", title: "Books") { book, _ in
            TableCell(.subtitle, CellContent(title: book.title, subtitle: book.author.isEmpty ? "Author unknown" : book.author))
        }
    }

    // A book is edited through its form; selecting it would do nothing.
    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { false }

    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] {
        let book = models[indexPath.row]
        return [RowAction(name: "edit", title: "Save", fields: Self.fields(title: book.title, author: book.author))]
    }

    override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) {
        guard name == "edit" else { return }
        models[indexPath.row].title = values["title"] ?? models[indexPath.row].title
        models[indexPath.row].author = values["author"] ?? ""
        tableContext?.reloadRows(at: [indexPath])
    }

    /// Adds a book with the add form's checked values.
    func add(_ values: [String: String]) {
        models.append(Book(id: "book-\(nextNumber)", title: values["title"] ?? "", author: values["author"] ?? ""))
        nextNumber += 1
        tableContext?.insertRows(at: [TableIndexPath(section: 0, row: models.count - 1)])
    }
}
