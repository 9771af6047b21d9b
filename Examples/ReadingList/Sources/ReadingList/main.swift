import TablePages
import TablePagesDatabase

// `--port N` (0 lets the system choose; the "listening on" line names it) and `--database FILE`.
let arguments = CommandLine.arguments
func option(_ name: String) -> String? { zip(arguments, arguments.dropFirst()).first { $0.0 == name }?.1 }
let port = option("--port").flatMap { Int($0) } ?? 8080

// The SQLite file, its schema brought up to date by the app's own migrations. Whoever writes to
// it, this program or the `sqlite3` shell, every page showing a book follows: the store watches
// the file for other processes' changes.
let store = try Store.open(path: option("--database") ?? "reading.sqlite", migrations: Book.migrations)
store.startWatching()

var pages = PageRegistry()
pages.register(ReadingListPage.definition(store: store))
pages.register(BookPage.definition(store: store))
pages.register(publicFiles: ["reading/blank.svg": BookRow.blankCover, "reading/cover.svg": BookRow.cover])
try await Site(pages: pages, title: "My reading list").run(port: port)
