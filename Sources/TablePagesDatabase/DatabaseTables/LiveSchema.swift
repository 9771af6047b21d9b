import Dispatch
import Logging
import Synchronization
import TablePages
import TableStore

/// A SQLite database's tables followed while the site runs: when its schema changes — a table
/// created or altered through Datasette's write API, or by any other process — each new or
/// altered table or view gets its page in the site's one registry (``/TablePages/SitePages``,
/// where a replaced page's open variants are told to fetch it again) and, on a database served
/// writable, its writer in the shared ``TableWriters``.
///
/// What can grow: a page and a writer per table, a few hundred bytes each; only an actor that may
/// change the schema (one allowed to write every page) creates tables through the write API, and
/// the live variants of all pages stay within `LiveSettings`' bounds. A table dropped while the
/// site runs keeps its page, which answers with the database's error, until the next start.
final class LiveSchema: Sendable {
    private let store: Store
    private let configured: [String: TableConfiguration]
    private let sqlPage: String?
    private let writers: TableWriters
    /// Where new writers keep their writes; nil when the database is served read-only.
    private let audit: (any AuditTrail)?
    private let feed: ChangeFeed
    private let logger: Logger
    // Checks and reloads one at a time, off the cooperative pool and the store's writers.
    private let queue = DispatchQueue(label: "tablepages.live-schema")
    private let state: Mutex<State>

    private struct State {
        /// The site's pages once it is built; nil before.
        var pages: SitePages?
        /// Each table's and view's `CREATE` text, as last served.
        var served: [String: String]
        /// SQLite's `schema_version` when last read.
        var version: Int?
    }

    /// Follows `store`'s schema, whose tables were served with `served`'s texts, on pages each
    /// re-read when `feed` is notified. Blocking: reads the schema's texts.
    init(
        store: Store, tables configured: [String: TableConfiguration], sqlPage: String?, writers: TableWriters, audit: (any AuditTrail)?,
        feed: ChangeFeed, logger: Logger
    ) throws {
        self.store = store
        self.configured = configured
        self.sqlPage = sqlPage
        self.writers = writers
        self.audit = audit
        self.feed = feed
        self.logger = logger
        let (texts, version) = try store.read { db in (try Self.texts(in: db), try Self.version(in: db)) }
        state = Mutex(State(served: texts, version: version))
    }

    /// Starts adding pages to `pages`, checking the schema after each change the store reports.
    func start(adding pages: SitePages) {
        state.withLock { $0.pages = pages }
        store.onChange { [weak self] in
            guard let self else { return }
            queue.async { [weak self] in self?.reloadIfChanged() }
        }
    }

    /// Serves the tables created or altered since the last look, before it returns. Blocking.
    /// - Throws: the store's errors reading the schema.
    func reload() throws {
        try queue.sync { try reloadNow() }
    }

    private func reloadIfChanged() {
        do {
            let version = try store.read { db in try Self.version(in: db) }
            guard version != state.withLock({ $0.version }) else { return }
            try reloadNow()
        } catch {
            logger.warning("could not read the schema of \(store.path) to serve its new tables: \(error)")
        }
    }

    private func reloadNow() throws {
        guard let pages = state.withLock({ $0.pages }) else { return }
        let labels = DatabaseLabelColumns(overrides: configured.compactMapValues(\.labelColumn))
        let (schemas, texts, version) = try store.read { db in
            (try DatabaseRelations.linkedSchemas(in: db, labels: labels), try Self.texts(in: db), try Self.version(in: db))
        }
        let served = state.withLock { $0.served }
        let changed = schemas.filter { texts[$0.name] != nil && texts[$0.name] != served[$0.name] }
        if !changed.isEmpty {
            var made: TableWriters?
            if let audit {
                let added = TableWriters.of(changed, database: store, audit: audit, logger: logger)
                writers.add(added)
                made = added
            }
            for page in DatabaseTablePages.pages(for: changed, database: store, feed: feed, tables: configured, sqlPage: sqlPage, writers: made) {
                pages.register(page)
            }
            let (new, altered) = (changed.filter { served[$0.name] == nil }.map(\.name), changed.filter { served[$0.name] != nil }.map(\.name))
            logger.notice("the schema of \(store.path) changed: serving \(new.isEmpty ? "" : "new \(new.joined(separator: ", "))")\(new.isEmpty || altered.isEmpty ? "" : "; ")\(altered.isEmpty ? "" : "altered \(altered.joined(separator: ", "))")")
        }
        state.withLock { state in
            state.served = texts
            state.version = version
        }
    }

    /// Each table's and view's `CREATE` text, by name.
    private static func texts(in db: any SQLSession) throws -> [String: String] {
        var texts: [String: String] = [:]
        for row in try db.rows("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'view')") {
            if let name = row[0].stringValue { texts[name] = row[1].stringValue ?? "" }
        }
        return texts
    }

    private static func version(in db: any SQLSession) throws -> Int? {
        try db.row("PRAGMA schema_version")?[0].intValue
    }
}
