import Logging
import TablePages
import TableStore

/// A SQLite database's tables served as pages, as one ``/TablePages/SiteFeature``: a page per
/// table (``DatabaseTablePages``), with the store as a readiness probe; the store watches the
/// file from when the site runs (``/TablePages/Site/services``) until it stops.
///
/// The schema is followed while the site runs: a table created or altered — through
/// Datasette's write API, or by any other process — gets its page (its `.json`, its place in the
/// index) and, served writable, its writer, within a poll of the store's watch; an altered
/// table's open pages, and those of tables it links to, fetch it again; a dropped table's page
/// goes. ``reloadSchema()`` serves them at once.
///
///     let store = try Store.openExisting(path: "shop.db", writable: false)
///     let tables = try DatabaseTables(store: store)
///     let site = Site(title: "Shop", features: [tables])
public struct DatabaseTables: SiteFeature {
    /// The store whose tables are served.
    public let store: Store
    /// The tables served when the feature was made (with `audit`: the writable ones first).
    public let tables: [String]
    /// The tables' writers: read-only ones unless made with an `audit` trail. They follow the
    /// schema too: a table created while the site runs has its writer here.
    public let writers: TableWriters
    private let pages: PageRegistry
    private let schema: LiveSchema

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
        var made: TableWriters?
        let (schemas, feed) = try DatabaseTablePages.registerSQLite(store: store, in: &pages, tables: configured, sqlPage: sqlPage) { schemas in
            made = audit.map { TableWriters.of(schemas, database: store, audit: $0, logger: logger) }
            return made
        }
        if let made {
            writers = made
            tables = writers.writableTables + writers.readOnlyTables.map(\.table)
        } else {
            tables = schemas.map(\.name)
            writers = TableWriters.readOnly(tables)
        }
        self.store = store
        self.pages = pages
        schema = try LiveSchema(store: store, tables: configured, sqlPage: sqlPage, writers: writers, audit: audit, feed: feed, logger: logger)
    }

    /// Adds the tables' pages, the store as a readiness probe, and its watching as a service;
    /// from then on, the pages of tables created or altered go to the site's ``/TablePages/SiteBuilder/livePages``.
    public func add(to site: inout SiteBuilder) {
        SiteParts(pages: pages, readinessProbes: [store], services: [StartStopService(start: { store.startWatching() }, stop: { store.stopWatching() })]).add(to: &site)
        schema.start(adding: site.livePages)
    }

    /// Serves the tables created or altered since the schema was last read (their pages, and
    /// their writers when served writable) before it returns; Datasette's write API calls it after
    /// `/-/create` and `alter`, so the new page answers as soon as the write does. Blocking: call
    /// it where a thread may block. Does nothing before the feature is added to a site.
    /// - Throws: the store's errors reading the schema.
    public func reloadSchema() throws {
        try schema.reload()
    }

    /// Calls `follower` after each reload of the schema, whoever changed it — the catalog of
    /// Datasette's URLs reads it again — before ``reloadSchema()`` returns. Blocking, off the cooperative pool.
    func followSchema(_ follower: @escaping @Sendable () throws -> Void) {
        schema.onReload(follower)
    }
}
