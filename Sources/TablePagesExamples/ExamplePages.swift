import Foundation
import Logging
import MicroHTTP
import TablePages
import TableStore
import TablePagesDatabase
import TableStorePostgres

/// The example pages `tablepages serve` shows out of the box: products, to-do (shared, and each
/// signed-in person's own), people & pets, gallery and destination, backed by one database —
/// SQLite embedded by default, or PostgreSQL shared by several instances — plus the in-memory
/// checklist.
///
///     let store = try ExamplePages.open(at: "tablepages.sqlite")
///     var pages = PageRegistry()
///     try ExamplePages.register(store: store, in: &pages)
///     store.startWatching()   // also pick up changes other processes make
///
/// On PostgreSQL: `let store = try PostgresStore(url: url)`, run in a `ServiceGroup`, then
/// `try await ExamplePages.prepare(postgres: store)`, the same `register`, and
/// `store.startWatching()` opens the listening connection.
public enum ExamplePages {
    /// The database file `tablepages serve` uses when given no other.
    public static let defaultDatabasePath = "tablepages.sqlite"

    /// Opens the examples' database at `path`, creating, migrating and seeding it on first use;
    /// later opens keep whatever the pages changed.
    public static func open(at path: String = defaultDatabasePath) throws -> Store {
        try ExampleDatabase.open(at: path)
    }

    /// Migrates and seeds the examples' PostgreSQL database on first use (under a lock, so
    /// instances starting together do it once); later runs keep what changed. Call it while the
    /// store runs (``/TableStorePostgres/PostgresStore/run()``).
    public static func prepare(postgres store: PostgresStore) async throws {
        // The store blocks its caller; a thread of its own keeps that off Swift's cooperative pool.
        try await OwnThread.run { try ExamplePostgresSchema.prepare(store) }
    }

    /// The pictures the examples show, under `images/`, compiled in from `Public/images` at build
    /// time (by the EmbedPublicFiles plugin).
    public static let publicFiles = BuiltInFiles(base64Encoded: generatedPublicFiles)

    /// Registers every example page over `store` (SQLite's ``/TableStore/Store`` or a
    /// ``/TableStorePostgres/PostgresStore``), with the pictures they show. Every page observes the
    /// store, so that a change from any writer reaches every open page; with the store's version
    /// clock, every instance numbers the pages' states alike.
    public static func register(store: some SQLStore & ObservableStore<any SQLSession>, in registry: inout PageRegistry) throws {
        let data: ExampleData = store
        let thumbnails = ThumbnailService(pictures: publicFiles, folder: "images/gallery/")
        registry.register(ProductsPage.definition(data: data))
        registry.register(try ProductDetailPage.definition(data: data))
        registry.register(TodoPage.definition(list: TodoList(data: data)))
        registry.register(TodoPage.personalDefinition(data: data))
        registry.register(PeoplePage.definition(data: data))
        registry.register(GalleryPage.definition(data: data, thumbnails: thumbnails))
        registry.register(DestinationPage.definition(guide: DestinationGuide(data: data)))
        register(in: &registry)
    }

    /// Registers the pages that need no database: the in-memory checklist and reading list; and the pictures.
    public static func register(in registry: inout PageRegistry) {
        registry.register(publicFiles: publicFiles)
        registry.register(ChecklistPage.definition())
        registry.register(ReadingListPage.definition())
    }
}
