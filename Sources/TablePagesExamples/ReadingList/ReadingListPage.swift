import TableKit
import TablePages

/// The in-memory reading list: forms of declared fields (``FormField``). Its add form has two
/// labelled inputs, each book an edit form of the same two; a title left blank or too long is
/// refused beside the form, in words. Its state lives in the server process.
public enum ReadingListPage {
    /// The page definition, with a fresh list for each server.
    public static func definition() -> PageDefinition {
        PageDefinition(name: "reading", title: "Reading list", summary: "An in-memory reading list: add and edit books with a two-field form.") { _ in
            let books = ReadingListSource(books: [
                Book(id: "book-1", title: "The Left Hand of Darkness", author: "Ursula K. Le Guin"),
                Book(id: "book-2", title: "Middlemarch", author: "George Eliot"),
            ])
            let add = AddSection(row: "add-book", prompt: "New book", fields: ReadingListSource.fields()) { books.add($0) }
            return CascadingRootTableDelegate(childDelegates: [books, add])
        }
    }
}
