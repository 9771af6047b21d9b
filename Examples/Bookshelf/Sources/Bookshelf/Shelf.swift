import Synchronization
import TablePages

/// The books, kept in memory and shared by both layouts' tables, with the feed that tells their
/// pages to re-read them after any change: a select in one layout, a cover that finished loading.
final class Shelf: Sendable {
    /// Announces every change; the page definition names it, so each live table re-reads the shelf
    /// and sends only the rows that differ.
    let changes = ChangeFeed()
    private let state: Mutex<State>

    private struct State {
        var books: [Book]
        var isLoadingCovers = false
    }

    init(books: [Book]) {
        state = Mutex(State(books: books))
    }

    /// The books as they are now.
    var books: [Book] { state.withLock { $0.books } }

    /// Marks a book read, or unread again.
    func toggleRead(_ id: Book.ID) {
        update(id) { $0.isRead.toggle() }
    }

    /// Starts loading every cover in a background task, the first time it is called: each cover
    /// takes `delay`, as a download would, and the row shows it as soon as it is there.
    func loadCoversOnce(delay: Duration) {
        let isFirst = state.withLock { state in
            defer { state.isLoadingCovers = true }
            return !state.isLoadingCovers
        }
        guard isFirst else { return }
        let ids = books.map(\.id)
        Task {
            for id in ids {
                try? await Task.sleep(for: delay)
                update(id) { $0.cover = "/public/bookshelf/cover.svg" }
            }
        }
    }

    private func update(_ id: Book.ID, _ change: (inout Book) -> Void) {
        state.withLock { state in
            guard let index = state.books.firstIndex(where: { $0.id == id }) else { return }
            change(&state.books[index])
        }
        changes.notify()
    }
}
