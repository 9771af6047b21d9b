import TablePages
import TableStore

/// The example pages `tablepages serve` shows out of the box: products, to-do, people & pets,
/// gallery and destination, backed by one SQLite database, plus the in-memory checklist.
///
///     let store = try ExamplePages.open(at: "tablepages.sqlite")
///     var pages = PageRegistry()
///     try ExamplePages.register(store: store, publicDirectory: "Public", in: &pages)
///     store.startWatching()   // also pick up changes other processes make
public enum ExamplePages {
    /// The database file `tablepages serve` uses when given no other.
    public static let defaultDatabasePath = "tablepages.sqlite"

    /// Opens the examples' database at `path`, creating, migrating and seeding it on first use;
    /// later opens keep whatever the pages changed.
    public static func open(at path: String = defaultDatabasePath) throws -> Store {
        try ExampleDatabase.open(at: path)
    }

    /// Registers every example page over `store`, and connects the store's change signal to the
    /// pages so that a change from any writer reaches every open page.
    /// - Parameter publicDirectory: the folder served under `/public/`; the gallery makes its
    ///   thumbnails from the pictures in its `images/gallery` folder.
    public static func register(store: Store, publicDirectory: String = "Public", in registry: inout PageRegistry) throws {
        let changes = ChangeFeed()
        let galleryChanges = ChangeFeed()
        store.onChange {
            changes.notify()
            galleryChanges.notify()
        }
        let thumbnails = ThumbnailService(
            directory: publicDirectory + "/images/gallery", urlPrefix: "/public/images/gallery/", onReady: galleryChanges.notify
        )
        let catalog = ProductCatalog(store: store)
        registry.register(ProductsPage.definition(catalog: catalog, changes: changes))
        registry.register(try ProductDetailPage.definition(store: store, changes: changes))
        registry.register(TodoPage.definition(list: TodoList(store: store), changes: changes))
        registry.register(PeoplePage.definition(store: store, changes: changes))
        registry.register(GalleryPage.definition(store: store, thumbnails: thumbnails, changes: galleryChanges))
        registry.register(DestinationPage.definition(guide: DestinationGuide(store: store), changes: changes))
        register(in: &registry)
    }

    /// Registers the pages that need no database: the in-memory checklist.
    public static func register(in registry: inout PageRegistry) {
        registry.register(ChecklistPage.definition())
    }
}
