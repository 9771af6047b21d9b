import Logging
import ServiceLifecycle
import TablePages
import TablePagesDatabase
import TablePagesExamples
import TablePagesPostgres
import TableStore
import TableStorePostgres

/// The PostgreSQL databases `serve`'s options name, made without connecting: they run in the
/// `ServiceGroup` before the site, whose features read them once they run.
struct PostgresDatabases: Sendable {
    /// `--database postgresql://…`'s tables.
    var tables: PostgresTablePages?
    /// `--postgres`: the examples' store.
    var examples: PostgresStore?

    /// Both, as services of the group.
    var services: [any Service] {
        var services: [any Service] = []
        if let tables { services.append(tables) }
        if let examples { services.append(examples) }
        return services
    }
}

extension ServeCommand {
    /// The PostgreSQL databases of `--database postgresql://…` and `--postgres`, not connected yet.
    /// - Throws: ``/TableStorePostgres/PostgresURL/Invalid``.
    func makePostgresDatabases(logger: Logger) throws -> PostgresDatabases {
        var databases = PostgresDatabases()
        if let database, PostgresURL.isPostgresURL(database) {
            // `disable` unless the URL says otherwise: `--database`'s documented default, unlike `--postgres`'s libpq `prefer`.
            databases.tables = try PostgresTablePages(
                url: try PostgresURL(database, defaultTLSMode: .disable), namespace: schema, watch: watch, writable: writable, auditMaxRows: auditMaxRows,
                queryTimeLimit: timeLimit, maximumConnections: databaseConcurrency + 2,
                readerURL: try sqlURL.map { try PostgresURL($0, defaultTLSMode: .disable) }, logger: logger
            )
        }
        if database == nil || examples, let postgres {
            databases.examples = try PostgresStore(url: try PostgresURL(postgres), maximumConnections: postgresConnections, logger: logger)
        }
        return databases
    }

    /// The site's features from the options: the examples by default (on PostgreSQL with
    /// `--postgres`), a user's database with `--database` — a SQLite file or a PostgreSQL URL —
    /// with its SQL page (plus the examples with `--examples`). `databases` must be running; SQLite
    /// stores count into `storeMetrics`.
    func makeFeatures(configuration: SiteConfiguration, databases: PostgresDatabases, storeMetrics: StoreMetrics?, logger: Logger) async throws -> [any SiteFeature] {
        var features: [any SiteFeature] = []
        if let tables = databases.tables {
            features += try await postgresFeatures(tables, configuration: configuration, logger: logger)
        }
        if database == nil || examples {
            features.append(try await exampleFeature(postgres: databases.examples, storeMetrics: storeMetrics, logger: logger))
        }
        if let database, !PostgresURL.isPostgresURL(database) {
            features += try await sqliteFeatures(database, configuration: configuration, storeMetrics: storeMetrics, logger: logger)
        }
        if database != nil { logger.notice("the SQL page at \(QueryPages.path) (--sql \(sql.rawValue))") }
        return features
    }

    /// The example pages, over SQLite (`--examples-database`) or PostgreSQL (`--postgres`).
    private func exampleFeature(postgres: PostgresStore?, storeMetrics: StoreMetrics?, logger: Logger) async throws -> any SiteFeature {
        var pages = PageRegistry()
        if let store = postgres {
            try await ExamplePages.prepare(postgres: store)
            store.queryTimeLimit = timeLimit
            try ExamplePages.register(store: store, in: &pages)
            logger.notice("serving the example pages from \(store.url)")
            return SiteParts(pages: pages, readinessProbes: [store], services: [StartStopService(start: { store.startWatching() }, stop: { store.stop() })])
        }
        let store = try ExamplePages.open(at: examplesDatabase)
        store.queryTimeLimit = timeLimit
        store.metrics = storeMetrics
        try ExamplePages.register(store: store, in: &pages)
        logger.notice("serving the example pages from \(examplesDatabase)")
        return SiteParts(pages: pages, readinessProbes: [store], services: [StartStopService(start: { store.startWatching() }, stop: { store.stopWatching() })])
    }

    /// A SQLite file's tables, its SQL page with the canned queries of `configuration`, and
    /// Datasette's URLs unless the file's name is one of TablePages' own.
    private func sqliteFeatures(_ database: String, configuration: SiteConfiguration, storeMetrics: StoreMetrics?, logger: Logger) async throws -> [any SiteFeature] {
        let store = try Store.openExisting(path: database, writable: writable, logger: logger)
        store.queryTimeLimit = timeLimit
        store.metrics = storeMetrics
        // In the credentials file (TablePages' own, mode 0600), never the served database.
        let audit = writable ? try DatabaseAuditTrail.sqlite(path: credentials.credentials, maxRows: auditMaxRows) : nil
        let tables = try DatabaseTables(store: store, tables: configuration.tables, sqlPage: sqlPage, audit: audit, logger: logger)
        if tables.tables.isEmpty { logger.warning("\(database) has no tables to serve yet (tables created while it runs are served at once)") }
        if let config { try configuration.checkTables(against: tables.tables, path: config) }
        // One runner for the SQL page, the canned queries and their live pages.
        let runner = try QueryPages.sqliteRunner(path: database, limits: queryLimits)
        if let config { try await OwnThread.run { try configuration.checkQueries(with: runner, path: config) } }
        logger.notice("serving the tables of \(database) (\(writable ? "writable" : "read-only"))")
        var datasette: DatasetteAPI?
        let name = DatasetteAPI.databaseName(forFile: database)
        if let refusal = DatasetteAPI.refusal(ofDatabaseName: name) {
            logger.warning("\(refusal)")
        } else {
            datasette = try DatasetteAPI(store: store, databaseName: name, labelColumns: configuration.tables.compactMapValues(\.labelColumn), logger: logger)
            datasette?.csvStreamMaxBytes = datasetteCsvMaxBytes
            datasette?.writable = writable
            datasette?.maxInsertRows = datasetteMaxInsertRows
            datasette?.writers = tables.writers
            datasette?.tables = tables
            logger.notice("Datasette's JSON API at \(datasette?.path ?? "")/{table}.json")
        }
        // SQLite tells only that the file changed, not which tables: every live query re-runs.
        let sqlPage = SQLPage(
            runner: runner, access: sql, canned: configuration.queries, maxLiveQueries: sqlLiveQueries, datasette: datasette,
            onChange: { heard in store.onChange { heard(.unknown) } }
        )
        announce(tables.writers, logger: logger)
        return [tables, try await editing(tables.writers), sqlPage]
    }

    /// A PostgreSQL database's tables (`--database postgresql://…`) and its SQL page, run as
    /// `--sql-url`'s role; reads the catalog on a thread of its own, since that blocks.
    private func postgresFeatures(_ served: PostgresTablePages, configuration: SiteConfiguration, logger: Logger) async throws -> [any SiteFeature] {
        let sqlPage = sqlPage
        let pages = try await OwnThread.run {
            var pages = PageRegistry()
            try served.register(tables: configuration.tables, sqlPage: sqlPage, in: &pages)
            return pages
        }
        let url = served.url
        if let config { try configuration.checkTables(against: pages.pages.map(\.name), path: config) }
        if served.tables.isEmpty { logger.warning("\(url) has no tables with a primary key to serve in schema \(schema)") }
        if !served.tablesWithoutKey.isEmpty {
            logger.warning("not served, for want of a primary key: \(served.tablesWithoutKey.joined(separator: ", "))")
        }
        logger.notice("serving the tables of \(url) schema \(schema) (\(writable ? "writable" : "read-only"), \(watch ? "changes by LISTEN" : "changes by polling"))")
        // One runner for the SQL page, the canned queries and their live pages, as a reader role.
        let limits = queryLimits
        let (runner, refusal) = try await OwnThread.run { try served.queryRunner(limits: limits, logger: logger) }
        if let refusal {
            guard configuration.queries.isEmpty else { throw CannedQueriesNeedReader(refusal: refusal) }
            if sql != .off { logger.warning("\(refusal)") }
        }
        if let config { try await OwnThread.run { try configuration.checkQueries(with: runner, path: config) } }
        announce(served.writers, logger: logger)
        let tables = SiteParts(pages: pages, readinessProbes: [served])
        return [tables, try await editing(served.writers), SQLPage(runner: runner, access: sql, canned: configuration.queries, maxLiveQueries: sqlLiveQueries, onChange: { served.onChange($0) })]
    }

    /// Logs which tables of `--database` can be edited and by whom, and where their writes are kept.
    private func announce(_ writers: TableWriters, logger: Logger) {
        let readOnly = writers.readOnlyTables.map(\.table).joined(separator: ", ")
        guard writable else {
            logger.notice("the tables of \(database ?? "") are read-only (edit them with --writable)")
            return
        }
        let tables = writers.writableTables.isEmpty ? "none" : writers.writableTables.joined(separator: ", ")
        logger.notice("editable by signed-in browsers and by tokens allowed to write them: \(tables)\(readOnly.isEmpty ? "" : "; read-only: " + readOnly)")
        if writers.audit != nil {
            let place = database.map(PostgresURL.isPostgresURL) == true ? "\(DatabaseAuditTrail.postgresSchema).audit_log" : credentials.credentials
            logger.notice("every write is kept in the audit trail (\(place), at most \(auditMaxRows) rows), at \(AuditPages.path) for signed-in browsers and tokens that may write")
        }
    }

    /// The browser's editing of the tables `writers` can write, and the audit trail's page; reads
    /// the tables' columns on a thread of its own, since that blocks.
    private func editing(_ writers: TableWriters) async throws -> DatabaseEditing {
        var editing = try await OwnThread.run { try DatabaseEditing(writers: writers) }
        editing.maxPastedRows = maxPastedRows
        editing.maxChoices = maxForeignKeyChoices
        return editing
    }

    /// `--query-time-limit`, or nil for none.
    private var timeLimit: Duration? { queryTimeLimit > 0 ? .milliseconds(queryTimeLimit) : nil }

    /// The SQL page's path when `--sql` lets anyone at all run SQL: table pages link their rows' query there.
    private var sqlPage: String? { sql == .off ? nil : QueryPages.path }
}
