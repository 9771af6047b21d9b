import Foundation
import GRDB
import HTTPTestSupport
import Synchronization
@testable import TablePagesTestSupport
import TableStore
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// Database pages take any store: here a store of the test's own, which forwards to a SQLite
/// `Store` and counts the snapshots the pages read through it.
@Suite("Database pages over any SQLStore")
struct DatabaseAnyStoreTests {
    final class ForwardingStore: SQLStore {
        let base: Store
        let snapshots = Atomic<Int>(0)

        init(base: Store) { self.base = base }

        var dialect: SQLDialect { base.dialect }

        func snapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
            snapshots.add(1, ordering: .relaxed)
            return try base.snapshot(body)
        }

        func transaction<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
            try base.transaction(body)
        }

        func onChange(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
            base.onChange(observer)
        }
    }

    @Test func aStoreOfOnesOwnServesTheTablesPagesAndTheirRows() async throws {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, data BLOB)")
            try db.execute(sql: "INSERT INTO note VALUES (1, 'first', x'00ff'), (2, 'second', NULL)")
        }
        defer { database.remove() }
        let store = ForwardingStore(base: try Store.openExisting(path: database.path, writable: false))
        var pages = PageRegistry()
        #expect(try DatabaseTablePages.register(store: store, in: &pages) == ["note"])
        let registered = store.snapshots.load(ordering: .relaxed)
        #expect(registered >= 1, "the schema was read through the store")
        try await withSite(pages: pages) { server, _ in
            let page = try await TestConnection(port: server.port).request("GET", "/pages/note.json")
            #expect(page.status == 200)
            #expect(page.text.contains("second"))
            let row = try await TestConnection(port: server.port).request("GET", "/pages/note/rows/1.json")
            #expect(row.status == 200)
            #expect(row.text.contains("AP8="), "the blob x'00ff' as base64: \(row.text)")
        }
        #expect(store.snapshots.load(ordering: .relaxed) > registered, "the pages read through the store")
    }
}
