import Foundation
import HTTPTestSupport
import Synchronization
import TableKit
@testable import TablePages
import TablePagesDatabase
@testable import TablePagesTestSupport
import Testing

/// The door for data that changes outside the page: an `ObservedSource` over a store, which every
/// store provides itself (no wrapper), followed live whoever writes, and observed only while a
/// page's variant lives.
@Suite("ObservedSource over a store: the door for outside changes")
struct ObservableStoreDoorTests {
    private struct Title: Identifiable, Sendable {
        let id: Int64
        let text: String
    }

    private static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("door-\(UUID().uuidString).sqlite").path
    }

    @Test func aPageOverASQLiteStoreFollowsTheSQLiteShellWithNoWrapper() async throws {
        let path = Self.temporaryPath()
        let store = try Store.open(path: path, migrations: ["create": "CREATE TABLE title (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"])
        store.startWatching(every: .milliseconds(50))
        defer { store.stopWatching() }
        var pages = PageRegistry()
        pages.register(PageDefinition(name: "titles", title: "Titles") { _ in
            ObservedSource(store, fetch: { db in
                try db.rows("SELECT id, text FROM title ORDER BY id").map { Title(id: try $0.int64(0), text: try $0.string(1)) }
            }) { title in CellContent(title: title.text) }
        })
        try await withSite(pages: pages) { server, _ in
            let client = try await TestConnection(port: server.port)
            let first = try await pageVersion(client, "/pages/titles.json")
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            shell.arguments = [path, "INSERT INTO title (text) VALUES ('from the shell')"]
            try shell.run()
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0)
            #expect(await eventually { (try? await client.request("GET", "/pages/titles.json").text.contains("from the shell")) ?? false })
            // The state is named by the database's clock, which the shell's write advanced.
            #expect(try await pageVersion(client, "/pages/titles.json") > first)
        }
    }

    @Test func aRootObservesItsStoreUntilItsHostStops() throws {
        let store = CountingStore()
        let root = ObservedSource(store, fetch: { $0 }) { (item: TestItem) in CellContent(title: item.title) }
        let heard = Counter()
        let stop = root.observeChanges { heard.increment() }
        #expect(store.observerCount == 1)
        store.announce()
        #expect(heard.count == 1)
        stop()
        #expect(store.observerCount == 0, "a dropped variant leaves no observer on the store")
        store.announce()
        #expect(heard.count == 1)
    }

    @Test func aMemoryStoresObserverStopsWhenToldTo() {
        let store = MemoryStore([1])
        let heard = Counter()
        let stop = store.onChange { heard.increment() }
        store.update { $0.append(2) }
        stop()
        store.update { $0.append(3) }
        #expect(heard.count == 1)
    }

    /// A store of a fixed list that counts its observers.
    private final class CountingStore: ObservableStore {
        private let changes = ChangeFeed()
        private let observers = Atomic<Int>(0)

        var observerCount: Int { observers.load(ordering: .relaxed) }

        func announce() { changes.notify() }

        func versionedRead<Value: Sendable>(_ fetch: ([TestItem]) throws -> Value) throws -> (value: Value, version: Int?) {
            (try fetch([TestItem(id: "a", title: "A")]), nil)
        }

        func onChange(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
            observers.add(1, ordering: .relaxed)
            let stop = changes.observe(observer)
            return {
                self.observers.subtract(1, ordering: .relaxed)
                stop()
            }
        }
    }

    /// Counts what it hears.
    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func increment() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    @Test func aSectionsAddFormOfTwoFieldsAddsAnItemEveryViewerSees() async throws {
        let store = MemoryStore([TestItem(id: "1", title: "Middlemarch")])
        let fields = [FormField(name: "title", label: "Title", isRequired: true), FormField(name: "author", label: "Author", isRequired: true)]
        var pages = PageRegistry()
        pages.register(PageDefinition(name: "books", title: "Books") { _ in
            let books = ObservedSection<TestItem>(id: "books", header: "Books", adding: fields, prompt: "Add a book", add: { values in
                store.update { $0.append(TestItem(id: "\($0.count + 1)", title: "\(values["title"] ?? "") by \(values["author"] ?? "")")) }
            }) { item in TitleRow(item: item) }
            return ObservedSource(store, fetch: { $0 }, sections: [books]) { books.show($0) }
        })
        try await withSite(pages: pages) { server, _ in
            let client = try await TestConnection(port: server.port)
            let html = try await client.request("GET", "/pages/books").text
            #expect(html.contains(#"name="title""#) && html.contains(#"name="author""#), "the form has both declared fields")
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let blank = try await client.request("POST", "/pages/books/sections/books/rows", headers: form, body: Array("title=Emma&author=".utf8))
            #expect(blank.status == 400, "a required field left blank is refused")
            let added = try await client.request("POST", "/pages/books/sections/books/rows", headers: form, body: Array("title=Emma&author=Jane+Austen".utf8))
            #expect(added.status < 400)
            #expect(try await client.request("GET", "/pages/books.json").text.contains("Emma by Jane Austen"))
        }
    }

    /// A row showing its item's title.
    private final class TitleRow: ObservedRow<TestItem> {
        override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.basic, CellContent(title: item.title)) }
    }
}
