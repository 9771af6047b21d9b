import TablePages

// `--port N` picks the port; 0 lets the system choose one, which the "listening on" line names.
let arguments = CommandLine.arguments
let port = zip(arguments, arguments.dropFirst()).first { $0.0 == "--port" }.flatMap { Int($0.1) } ?? 8080

// The books, in memory; every page showing them follows each change.
let shelf = MemoryStore(Book.samples)

var pages = PageRegistry()
pages.register(BookshelfPage.definition(shelf: shelf))
pages.register(publicFiles: ["bookshelf/cover.svg": BookshelfPage.cover])
let site = Site(pages: pages, title: "My library")

// The covers load in the background, one every 400 ms (a download would go here). Each one changes
// the store, and every page showing the book is sent its row again.
let covers = Task {
    for book in Book.samples {
        guard (try? await Task.sleep(for: .milliseconds(400))) != nil else { return }
        shelf.update { books in
            if let index = books.firstIndex(where: { $0.id == book.id }) { books[index].cover = "/public/bookshelf/cover.svg" }
        }
    }
}

// Anyone may read; changing anything needs an actor, and the log names the link that signs a
// browser in. Ctrl-C or SIGTERM: refuse new work, let requests in flight finish, end live streams.
try await site.run(port: port)
covers.cancel()
