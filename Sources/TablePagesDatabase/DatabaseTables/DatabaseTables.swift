import Logging
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
    /// The tables served (with `audit`: the writable ones first).
    public let tables: [String]
    /// The tables' writers: read-only ones unless made with an `audit` trail.
    public let writers: TableWriters
    private let pages: PageRegistry

    /// Reads `store`'s tables and makes their pages; `tables` and `sqlPage` as
    /// ``DatabaseTablePages/register(store:in:tables:sqlPage:)`` takes them. With `audit` (the
    /// store opened writable, `serve --writable`), each table but views gets a ``TableWriter``
    /// keeping its writes there, and its page lets actors allowed to write it edit it
    /// (``DatabaseTablePages/registerWritable(store:in:tables:sqlPage:audit:logger:)``).
    /// - Throws: the store's errors reading SQLite's schema.
    public init(
        store: Store, tables configured: [String: TableConfiguration] = [:], sqlPage: String? = nil,
        audit: (any AuditTrail)? = nil, logger: Logger = Logger(label: "TablePages")
    ) throws {
        var pages = PageRegistry()
        if let audit {
            writers = try DatabaseTablePages.registerWritable(store: store, in: &pages, tables: configured, sqlPage: sqlPage, audit: audit, logger: logger)
            tables = writers.writableTables + writers.readOnlyTables.map(\.table)
        } else {
            tables = try DatabaseTablePages.register(store: store, in: &pages, tables: configured, sqlPage: sqlPage)
            writers = TableWriters.readOnly(tables)
        }
        self.store = store
        self.pages = pages
    }

    /// Adds the tables' pages, the store as a readiness probe, and its watching as a service.
    public func add(to site: inout SiteBuilder) {
        SiteParts(pages: pages, readinessProbes: [store], services: [StartStopService(start: { store.startWatching() }, stop: { store.stopWatching() })]).add(to: &site)
    }
}
