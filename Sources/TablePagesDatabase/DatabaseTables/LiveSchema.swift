import Dispatch
import Logging
import Synchronization
import TablePages
import TableStore

/// A SQLite database's tables followed while the site runs: when its schema changes — a table
/// created, altered or dropped through Datasette's write API, or by any other process — each
/// table or view whose schema (its columns, or its links to and from other tables) changed gets
/// its page again in the site's one registry (``/TablePages/SitePages``, where a replaced page's
/// open variants are told to fetch it again) and, on a database served writable, its writer in
/// the shared ``TableWriters``; a dropped table's page and writer go. Then its followers (the
/// catalog of Datasette's URLs) read the schema again.
///
/// What can grow: a page and a writer per table in the database, a few hundred bytes each; only
/// an actor that may change the schema (one allowed to write every page) creates tables through
/// the write API, and the live variants of all pages stay within `LiveSettings`' bounds. Change
/// notifications are coalesced: at most one check waits behind the one running.
final class LiveSchema: Sendable {
    private let store: Store
    private let configured: [String: TableConfiguration]
    private let labels: DatabaseLabelColumns
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
        var texts: [String: String]
        /// Each served table's and view's schema with its relations, as last served.
        var schemas: [String: DatabaseTableSchema]
        /// SQLite's `schema_version` when last read.
        var version: Int?
        /// Whether a check is queued and not started yet: more notifications need no other.
        var checkPending = false
        /// Called after each reload, on the reloading thread.
        var followers: [@Sendable () throws -> Void] = []
    }

    /// The schema as one read sees it.
    private struct Snapshot {
        let schemas: [DatabaseTableSchema]
        let texts: [String: String]
        let version: Int?
    }

    /// Follows `store`'s schema, whose tables are served now, on pages each re-read when `feed`
    /// is notified. Blocking: reads the schema.
    init(
        store: Store, tables configured: [String: TableConfiguration], sqlPage: String?, writers: TableWriters, audit: (any AuditTrail)?,
        feed: ChangeFeed, logger: Logger
    ) throws {
        self.store = store
        self.configured = configured
        self.labels = DatabaseLabelColumns(overrides: configured.compactMapValues(\.labelColumn))
        self.sqlPage = sqlPage
        self.writers = writers
        self.audit = audit
        self.feed = feed
        self.logger = logger
        let now = try Self.read(store, labels: labels)
        state = Mutex(State(texts: now.texts, schemas: Self.byName(now.schemas), version: now.version))
    }

    /// Starts adding pages to `pages`, checking the schema after each change the store reports.
    func start(adding pages: SitePages) {
        state.withLock { $0.pages = pages }
        store.onChange { [weak self] in
            guard let self else { return }
            let queued = state.withLock { state in
                defer { state.checkPending = true }
                return state.checkPending
            }
            guard !queued else { return }
            queue.async { [weak self] in
                guard let self else { return }
                // Cleared before the check reads: a change during it queues the next.
                state.withLock { $0.checkPending = false }
                reloadIfChanged()
            }
        }
    }

    /// Calls `follower` after each reload of the schema (blocking, off the cooperative pool),
    /// before ``reload()`` returns.
    func onReload(_ follower: @escaping @Sendable () throws -> Void) {
        state.withLock { $0.followers.append(follower) }
    }

    /// Serves the tables created, altered or dropped since the last look, before it returns. Blocking.
    /// - Throws: the store's errors reading the schema, and the followers'.
    func reload() throws {
        try queue.sync { try reloadNow() }
    }

    private func reloadIfChanged() {
        do {
            let version = try store.read { db in try Self.version(in: db) }
            guard version != state.withLock({ $0.version }) else { return }
            try reloadNow()
        } catch {
            logger.warning("could not follow the schema of \(store.path): \(error)")
        }
    }

    private func reloadNow() throws {
        let (pages, followers) = state.withLock { ($0.pages, $0.followers) }
        guard let pages else {
            for follower in followers { try follower() }
            return
        }
        let now = try Self.read(store, labels: labels)
        let (texts, schemas) = state.withLock { ($0.texts, $0.schemas) }
        // Another table's change can change this one's page: links into it, its label columns.
        let changed = now.schemas.filter { now.texts[$0.name] != nil && (now.texts[$0.name] != texts[$0.name] || schemas[$0.name] != $0) }
        let gone = schemas.keys.filter { now.texts[$0] == nil }.sorted()
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
        }
        if !gone.isEmpty {
            writers.remove(gone)
            for table in gone { pages.remove(named: DatabaseTablePages.pageName(ofTable: table)) }
        }
        if !changed.isEmpty || !gone.isEmpty {
            let new = changed.filter { texts[$0.name] == nil }.map(\.name)
            let altered = changed.filter { texts[$0.name] != nil }.map(\.name)
            let parts = [("new", new), ("changed", altered), ("no longer", gone)].filter { !$0.1.isEmpty }.map { "\($0.0) \($0.1.joined(separator: ", "))" }
            logger.notice("the schema of \(store.path) changed: serving \(parts.joined(separator: "; "))")
        }
        state.withLock { state in
            state.texts = now.texts
            state.schemas = Self.byName(now.schemas)
            state.version = now.version
        }
        for follower in followers { try follower() }
    }

    private static func read(_ store: Store, labels: DatabaseLabelColumns) throws -> Snapshot {
        try store.read { db in
            Snapshot(schemas: try DatabaseRelations.linkedSchemas(in: db, labels: labels), texts: try texts(in: db), version: try version(in: db))
        }
    }

    private static func byName(_ schemas: [DatabaseTableSchema]) -> [String: DatabaseTableSchema] {
        Dictionary(schemas.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
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
