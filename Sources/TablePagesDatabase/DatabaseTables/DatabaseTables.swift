import TablePages
import TableStore

/// A SQLite database's tables served as pages, as one ``/TablePages/SiteFeature``: a page per
/// table (``DatabaseTablePages``), with the store as a readiness probe; the store watches the
/// file from when the site runs (``/TablePages/Site/services``) until it stops.
///
///     let store = try Store.openExisting(path: "shop.db", writable: false)
///     let tables = try DatabaseTables(store: store)
///     let site = Site(title: "Shop", features: [tables])
public struct DatabaseTables: SiteFeature {
    /// The store whose tables are served.
    public let store: Store
    /// The tables served, in index order.
    public let tables: [String]
    private let pages: PageRegistry

    /// Reads `store`'s tables and makes their pages; `tables` and `sqlPage` as
    /// ``DatabaseTablePages/register(store:in:feed:tables:sqlPage:)`` takes them.
    /// - Throws: the store's errors reading SQLite's schema.
    public init(store: Store, tables configured: [String: TableConfiguration] = [:], sqlPage: String? = nil) throws {
        var pages = PageRegistry()
        self.tables = try DatabaseTablePages.register(store: store, in: &pages, tables: configured, sqlPage: sqlPage)
        self.store = store
        self.pages = pages
    }

    /// Adds the tables' pages, the store as a readiness probe, and its watching as a service.
    public func add(to site: inout SiteBuilder) {
        SiteParts(pages: pages, readinessProbes: [store], services: [StartStopService(start: { store.startWatching() }, stop: { store.stopWatching() })]).add(to: &site)
    }
}
