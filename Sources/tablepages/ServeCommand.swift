import ArgumentParser
import CoreMetrics
import Logging
import ServiceLifecycle
import MicroHTTP
import TablePages
import TablePagesDatabase
import TablePagesExamples
import TablePagesPostgres
import TableStore
import TableStorePostgres

/// `tablepages serve`: runs the web service until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the web server until interrupted (Ctrl-C or SIGTERM stop it gracefully).",
        discussion: """
            Examples:
              tablepages serve                          # http://127.0.0.1:8080
              tablepages serve --host 0.0.0.0 --port 80 # every interface, e.g. in a container
              tablepages serve --port 0                 # any free port; the log says which

            Anyone may read; to change anything, open the sign-in link the server prints on startup \
            (http://HOST:PORT/-/signin?token=…, printed unless --log-level is error or critical; it signs one \
            browser in, once, and `tablepages secret link` prints another), or send \
            an access token from `tablepages token create` as Authorization: Bearer TOKEN.
            """
    )

    @Option(help: "Address to listen on: 127.0.0.1 (this machine only), 0.0.0.0 (all IPv4), :: (all).")
    var host = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free one.")
    var port = 8080

    @Option(help: "Event threads (default: one per core).")
    var threads = ProcessInfoLite.activeProcessorCount

    @Option(help: "The site's name, in every page's bar and as the index's title.")
    var title = "TablePages"

    @Option(help: ArgumentHelp(
        "For development: a folder whose files are served under /public/ instead of the built-in ones of the same name (e.g. Public in the checkout).",
        discussion: "Without it the built-in table-pages.js, table-pages.css, favicon.svg, openapi.json and example pictures are served. Each file is read once, then kept in memory.",
        valueName: "folder"
    ))
    var publicDirectory: String?

    @Option(help: ArgumentHelp(
        "A SQLite database file, or a PostgreSQL URL (postgresql://user:password@host:port/database), whose tables to serve as pages, instead of the examples.",
        discussion: "Opened read-only unless --writable is given; changes made by other processes appear live (PostgreSQL: by polling, or with --watch by triggers and LISTEN). PostgreSQL tables need a primary key to be served. A table page's suggested facets are judged on its first 10,000 rows in key order, all of a page's checks within 200 ms (past it, the suggestions found by then).",
        valueName: "file-or-url"
    ))
    var database: String?

    @Flag(help: ArgumentHelp(
        "With --database: let signed-in browsers and tokens allowed to write a table edit it (insert, update, delete), and other processes' writes in.",
        discussion: "Each table of the database becomes writable for actors whose access allows writes to its page (the sign-in link's browsers; tokens that may write it); views, and PostgreSQL tables without a primary key, stay read-only. A SQLite table without a primary key is written by rowid. Every write is one transaction, checked by the database's own rules, and kept in the audit trail (see --audit-max-rows) at /-/audit."
    ))
    var writable = false

    @Option(help: ArgumentHelp(
        "With --writable: the most writes kept in the audit trail (one row per changed row: who, when, how, the table, the key, the values before and after); the oldest are dropped.",
        discussion: "SQLite: in the credentials file (--credentials), never the served database. PostgreSQL: in the table tablepages.audit_log of the database, shared by every instance.",
        valueName: "rows"
    ))
    var auditMaxRows = DatabaseAuditTrail.defaultMaxRows

    @Flag(help: "With a PostgreSQL --database: install statement-level triggers that NOTIFY on the served tables (needs CREATE on the schema and ownership of the tables) and follow changes by LISTEN instead of polling.")
    var watch = false

    @Option(help: "With a PostgreSQL --database: the schema whose tables to serve.")
    var schema = "public"

    @Flag(help: "With --database: serve the example pages too.")
    var examples = false

    @Option(help: "The examples' database, created and seeded on first run.")
    var examplesDatabase = ExamplePages.defaultDatabasePath

    @Option(help: ArgumentHelp(
        "Keep the example pages' data in this PostgreSQL database instead of SQLite: postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require].",
        discussion: "Migrated and seeded on first use. Run any number of instances on one database: a change made through any of them, or by any other client, reaches the pages of all (LISTEN/NOTIFY on one extra connection per instance).",
        valueName: "url"
    ))
    var postgres: String?

    @Option(help: "With --postgres: most connections in the pool for reads and writes (the listening connection is one more); pages wait for a free one up to 10 s.")
    var postgresConnections = PostgresStore.defaultMaximumConnections

    @Option(help: "Log level: trace, debug, info (one line per request), notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "Log lines as text (for people) or json (one object per line, for log shippers).")
    var logFormat: LogFormat = .text

    @Option(help: "Bytes of access log lines waiting to be written (written at least every second); lines past it are dropped and counted, never waited for.")
    var accessLogBufferSize = ServerConfiguration().accessLogBufferSize

    @Option(help: "Most connections open at once (default: the open-file hard limit less 512 for database, files and sockets, at most 100,000; the soft limit is raised to match at start, and reaching the limit is logged as a warning).")
    var connectionLimit = ServerConfiguration().connectionLimit

    @Option(help: "Most connections from one client address, or one IPv6 /64 (0: no limit). Counted by the socket's peer before any header is read: a --trusted-proxy is exempt (only --connection-limit bounds it).")
    var perClientConnectionLimit = 1_000

    @Option(help: "A reverse proxy, as an address or CIDR range (10.0.0.0/8, fd00::/8), whose X-Forwarded-For / Forwarded and X-Forwarded-Proto are believed: its requests count as the client it names (the right-most address that is not a trusted proxy) in the access log, the sign-in limiter, --max-streams-per-client and live queries' per-client bounds, and its https makes the session cookie Secure. Repeatable; default none.")
    var trustedProxy: [String] = []

    @Flag(help: "Mark the session cookie Secure on every sign-in (the site is served over TLS by something in front that does not send X-Forwarded-Proto).")
    var secureCookies = false

    @Option(help: "Seconds an idle connection is kept open (0: forever).")
    var connectionTimeout = 60

    @Option(help: "Seconds a client may take to send a whole request, however slowly it trickles (0: no limit); late ones are disconnected or get 408.")
    var requestTimeout = 30

    @Option(help: "Most live event streams from one client (one IPv6 /64; behind a --trusted-proxy, the client it names); more get 429 (0: no limit).")
    var maxStreamsPerClient = ServerConfiguration().maxStreamsPerClient

    @Option(help: "Bytes of memory each connection may use for its request head and buffers (min 6144; default 7680: request heads up to about 6.1 KB, 4.5 KB with a 1 KB cookie, 2.8 KB in 55 short fields, 431 beyond; an idle live subscriber costs about 9.5 KiB in all, 0.5 KiB more per 512 bytes; 16384 takes heads up to about 13.2-14.9 KB at about 14.4 KiB per subscriber).")
    var connectionMemoryLimit = ServerConfiguration().connectionMemoryLimit

    @Option(help: "Largest request body in bytes; larger ones get 413.")
    var maxBodySize = 1 << 20

    @Option(help: "Seconds between heartbeat comments on live event streams.")
    var heartbeatInterval = 15

    @Option(help: "Bytes of rendered pages kept for the whole process, least recently used out (0: none).")
    var renderCacheSize = LiveSettings().renderCacheByteLimit

    @Option(help: "Most page variants kept live in the process; past it, unwatched ones are dropped.")
    var maxLiveVariants = LiveSettings().maxLiveVariants

    @Option(help: "Estimated bytes all live page variants may hold (rows and patch logs); past it, unwatched ones are dropped.")
    var liveVariantsSize = LiveSettings().liveVariantsByteLimit

    @Option(help: "Most pages one shared event stream (/-/events) may follow (400 beyond).")
    var maxPagesPerStream = LiveSettings().maxPagesPerStream

    @Option(help: "Most variants of one page kept live when nobody watches them.")
    var maxVariantsPerPage = LiveSettings().maxVariantsPerPage

    @Option(help: "Bytes of patches kept per page variant for clients that reconnect.")
    var patchLogSize = LiveSettings().patchLogByteLimit

    @Option(help: "Bytes of answers kept, 24 hours each, for inserts sent with an Idempotency-Key header, so that one sent again is not added twice (0: keys are not honoured).")
    var idempotencyCacheSize = LiveSettings().idempotencyByteLimit

    @Option(help: "Bytes of a CSV or NDJSON export buffered for a slow client; reading the database pauses beyond it.")
    var exportBufferSize = LiveSettings().exportBufferBytes

    @Option(help: "With --database: the most bytes of a CSV streamed at Datasette's URLs with _stream=1 (/{database}/{table}.csv?_stream=1); the body ends there with Datasette's \"CSV contains more than … bytes\".")
    var datasetteCsvMaxBytes = DatasetteAPI.defaultCSVStreamMaxBytes

    @Option(help: "Most CSV or NDJSON downloads running at once (each holds a thread while it reads); more get 503 with Retry-After.")
    var maxExports = LiveSettings().maxConcurrentExports

    @Option(help: "Milliseconds one database read may run before it is stopped and answered 503 (0: no limit).")
    var queryTimeLimit = 1000

    @Option(help: "Pages doing database work at once: each page runs on one of this many database threads.")
    var databaseConcurrency = LiveSettings().databaseConcurrency

    @Option(help: "Jobs that may wait for one database thread; requests beyond get 503 with Retry-After.")
    var databaseQueueLimit = LiveSettings().databaseQueueLimit

    @Option(help: "Live queries (\"Watch live\", canned queries' live pages) one client (an address; for IPv6 its /64) may watch at once; another is refused with 429.")
    var maxWatchedQueriesPerClient = LiveSettings().maxWatchedQueriesPerClient

    @Option(help: "Seconds a live query's variant is kept once nobody watches or asks for it; then it is dropped and runs afresh when next asked for.")
    var unwatchedQueryLifetime = Int(LiveSettings().unwatchedQueryLifetime.components.seconds)

    @Option(help: "Runs of live queries (\"Watch live\" and canned queries' live pages) that may wait for the query thread, which table pages never use; beyond, 503 with Retry-After.")
    var liveQueryQueueLimit = LiveSettings().queryLaneQueueLimit

    @Option(help: "Pages of rows read from a position past the first row (?_at=N) that may wait for their own database thread, which fresh pages never use; beyond, 503 with Retry-After.")
    var positionalQueueLimit = LiveSettings().positionalQueueLimit

    @Option(help: "Seconds request handling or a database thread may make no progress before /healthz (request handling) or /readyz (either) answers 503.")
    var stallTimeout = Int(LiveSettings().stallTimeout.components.seconds)

    @Option(help: ArgumentHelp(
        "With --database: who may run their own read-only SQL at /-/sql (and, for SQLite, Datasette's /{database}.json?sql=): anyone, signed-in or off.",
        discussion: "The SQL runs read-only (SQLite: a read-only connection; PostgreSQL: a READ ONLY transaction, rolled back) under --query-time-limit, --sql-row-limit and --sql-result-size; statements that would write, ATTACH, PRAGMA settings and functions that touch files or change settings are refused (400). On SQLite, LIKE and GLOB patterns are at most 100 bytes (one match costs the pattern's length times the text's, in a call the time limit cannot stop), and SQLite may hold at most 32 times --sql-result-size (at least 256 MiB) in the whole process.",
        valueName: "who"
    ))
    var sql: QueryAccess = .anyone

    @Option(help: ArgumentHelp(
        "With a PostgreSQL --database: the URL visitors' SQL (the SQL page, its live pages, canned queries) runs as, on connections of its own: a role that can only read (postgresql://tablepages_reader@HOST/DATABASE).",
        discussion: "Without it, visitors' SQL runs as --database's role if that role can only read. A superuser, a role with REPLICATION, BYPASSRLS or CREATEROLE, a member of pg_read_server_files, pg_write_server_files, pg_execute_server_program, pg_signal_backend, pg_monitor (and its parts) or pg_write_all_data, or a role that may write a table is refused: the SQL page answers 403 saying so, and canned queries (--config) stop the server (see docs/operations.md, A PostgreSQL database).",
        valueName: "url"
    ))
    var sqlURL: String?

    @Option(help: ArgumentHelp(
        "With --database: a JSON configuration file of table titles, descriptions, label columns, hidden tables and canned queries; each canned query is checked against the database at startup, and one it refuses stops the server (see docs/operations.md, The configuration file).",
        valueName: "file"
    ))
    var config: String?

    @Option(help: "Most rows one query of the SQL page answers; it says it was truncated beyond.")
    var sqlRowLimit = QueryLimits.defaultRows

    @Option(help: "Most queries of the SQL page live at once (its \"Watch live\" pages, each re-run on every change while watched), and most parameter values of each canned query's live page; past it a new one drops the least recently used that nobody watches, or is answered 503 when each is watched.")
    var sqlLiveQueries = LiveQueryPages.defaultMaxSQLQueries

    @Option(help: "Bytes one answer of the SQL page may hold, as its formats write the values (text counts as its JSON and its HTML together, which a live page holds both of: a zero byte is 7, \\u0000 and itself); it says it was truncated before the row that passes it, and refuses (400) a first row that does. Also the most bytes of any one value while a query runs: SQLite stops a larger string or blob at once, PostgreSQL refuses to send a larger row.")
    var sqlResultSize = QueryLimits.defaultBytes

    @Flag(help: "Let anonymous clients write, without signing in: only for demos on a trusted network.")
    var anonymousWrites = false

    @OptionGroup var credentials: CredentialsOptions

    @OptionGroup var signInLinks: SignInLinkOptions

    @Option(help: "Bytes of client addresses kept to limit wrong sign-in tokens (about 128 each; per address 10 at once, then 1 a second, 429 with Retry-After beyond); past it, new addresses share one limit.")
    var signInLimiterSize = AccessSettings.defaultSignInLimiterSize

    @Flag(help: "Make a new session secret before starting: every browser is signed out and every sign-in link not used yet stops working.")
    var rotateSecret = false

    @Flag(inversion: .prefixedNo, help: "Serve Prometheus metrics at /metrics (--no-metrics: no /metrics, nothing counted).")
    var metrics = true

    @Option(name: .customLong("allowed-host"), help: ArgumentHelp(
        "A host name (or address) clients reach this server by; others get 421. Repeatable; '*.example.com' allows a domain's names, '*' any.",
        discussion: "localhost, 127.0.0.1 and [::1] are always allowed, and so is --host's address when it is one address. On 0.0.0.0 or :: (e.g. in a container) add every name clients use.",
        valueName: "name"
    ))
    var allowedHosts: [String] = []

    @Option(name: .customLong("cors"), help: ArgumentHelp(
        "An origin (https://app.example) whose scripts may call the pages with credentials: preflights answered, Access-Control-Allow-Origin sent. Repeatable.",
        valueName: "origin"
    ))
    var corsOrigins: [String] = []

    func validate() throws {
        for name in allowedHosts where !HostAllowList.isValidPattern(name) {
            throw ValidationError("--allowed-host \(name) is not a host name: give a name (tables.example.com), an address (192.0.2.7, [::1]), *.domain or *, without a scheme.")
        }
        for origin in corsOrigins where !CORSPolicy.isValidOrigin(origin) {
            throw ValidationError("--cors \(origin) is not an origin: give scheme, host and port only, e.g. https://app.example or http://localhost:3000 (never *).")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1.") }
        guard connectionLimit >= 1 else { throw ValidationError("--connection-limit must be at least 1.") }
        guard perClientConnectionLimit >= 0, connectionTimeout >= 0 else {
            throw ValidationError("--per-client-connection-limit and --connection-timeout must not be negative.")
        }
        for range in trustedProxy where AddressRange(range) == nil {
            throw ValidationError("--trusted-proxy \(range) is not an IPv4 or IPv6 address or CIDR range (e.g. 10.0.0.0/8, fd00::/8, 127.0.0.1).")
        }
        guard requestTimeout >= 0, maxStreamsPerClient >= 0 else {
            throw ValidationError("--request-timeout and --max-streams-per-client must not be negative.")
        }
        guard connectionMemoryLimit >= ServerConfiguration.minimumConnectionMemoryLimit else {
            throw ValidationError("--connection-memory-limit must be at least \(ServerConfiguration.minimumConnectionMemoryLimit).")
        }
        guard maxBodySize >= 0 else { throw ValidationError("--max-body-size must not be negative.") }
        guard accessLogBufferSize >= 0 else { throw ValidationError("--access-log-buffer-size must not be negative.") }
        guard signInLimiterSize >= 0 else { throw ValidationError("--sign-in-limiter-size must not be negative.") }
        if let postgres {
            do { _ = try PostgresURL(postgres) } catch { throw ValidationError("--postgres: \(error)") }
            guard examplesDatabase == ExamplePages.defaultDatabasePath else {
                throw ValidationError("--postgres and --examples-database are alternatives: the examples' data lives in one of them.")
            }
        }
        guard postgresConnections >= 1 else { throw ValidationError("--postgres-connections must be at least 1.") }
        if database == nil, writable || examples || config != nil {
            throw ValidationError("--writable, --examples and --config go with --database.")
        }
        if !(database.map(PostgresURL.isPostgresURL) ?? false), watch || schema != "public" || sqlURL != nil {
            throw ValidationError("--watch, --schema and --sql-url go with a PostgreSQL --database (postgresql://…).")
        }
        if let sqlURL {
            do { _ = try PostgresURL(sqlURL, defaultTLSMode: .disable) } catch { throw ValidationError("--sql-url: \(error)") }
        }
        guard heartbeatInterval >= 1 else { throw ValidationError("--heartbeat-interval must be at least 1 second.") }
        guard renderCacheSize >= 0, liveVariantsSize >= 0, patchLogSize >= 0, idempotencyCacheSize >= 0 else {
            throw ValidationError("--render-cache-size, --live-variants-size, --patch-log-size and --idempotency-cache-size must not be negative.")
        }
        guard maxLiveVariants >= 1, maxVariantsPerPage >= 1, maxExports >= 1, maxPagesPerStream >= 1 else {
            throw ValidationError("--max-live-variants, --max-variants-per-page, --max-exports and --max-pages-per-stream must be at least 1.")
        }
        guard sqlRowLimit >= 1, sqlResultSize >= 1, sqlLiveQueries >= 1 else {
            throw ValidationError("--sql-row-limit, --sql-result-size and --sql-live-queries must be at least 1.")
        }
        guard queryTimeLimit >= 0 else { throw ValidationError("--query-time-limit must not be negative.") }
        guard auditMaxRows >= 1 else { throw ValidationError("--audit-max-rows must be at least 1.") }
        guard datasetteCsvMaxBytes >= 1 else { throw ValidationError("--datasette-csv-max-bytes must be at least 1.") }
        guard databaseConcurrency >= 1, databaseQueueLimit >= 1, liveQueryQueueLimit >= 1, positionalQueueLimit >= 1, stallTimeout >= 1,
              maxWatchedQueriesPerClient >= 1, unwatchedQueryLifetime >= 1 else {
            throw ValidationError("--database-concurrency, --database-queue-limit, --live-query-queue-limit, --positional-queue-limit, --max-watched-queries-per-client, --unwatched-query-lifetime and --stall-timeout must be at least 1.")
        }
    }

    func run() async throws {
        let (level, format) = (logLevel, logFormat)
        LoggingSystem.bootstrap { label in
            LineLogHandler(label: label, format: format, output: .standardError, logLevel: level)
        }
        let logger = Logger(label: "tablepages")
        var configuration = ServerConfiguration(host: host, port: port)
        configuration.threads = threads
        configuration.connectionLimit = connectionLimit
        configuration.perClientConnectionLimit = perClientConnectionLimit
        configuration.connectionTimeout = connectionTimeout
        configuration.requestTimeout = .seconds(requestTimeout)
        configuration.maxStreamsPerClient = maxStreamsPerClient
        configuration.trustedProxies = trustedProxy.compactMap(AddressRange.init)
        configuration.maxBodySize = maxBodySize
        configuration.connectionMemoryLimit = connectionMemoryLimit
        configuration.heartbeatInterval = .seconds(heartbeatInterval)
        configuration.accessLogFormat = logFormat
        configuration.accessLogBufferSize = accessLogBufferSize

        let siteConfiguration: SiteConfiguration
        do {
            siteConfiguration = try config.map(SiteConfiguration.load(path:)) ?? SiteConfiguration()
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
        let pages: PageRegistry
        let stores: [Store]
        let postgresStore: PostgresStore?
        let postgresTables: PostgresTablePages?
        var datasette: DatasetteAPI?
        let queryRunner: (any QueryRunner)?
        let writers: TableWriters?
        do {
            (pages, stores, postgresStore, postgresTables, datasette, queryRunner, writers) = try await makePages(configuration: siteConfiguration, logger: logger)
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
        var settings = LiveSettings()
        settings.renderCacheByteLimit = renderCacheSize
        settings.maxLiveVariants = maxLiveVariants
        settings.liveVariantsByteLimit = liveVariantsSize
        settings.maxVariantsPerPage = maxVariantsPerPage
        settings.maxPagesPerStream = maxPagesPerStream
        settings.patchLogByteLimit = patchLogSize
        settings.idempotencyByteLimit = idempotencyCacheSize
        settings.exportBufferBytes = exportBufferSize
        settings.maxConcurrentExports = maxExports
        settings.databaseConcurrency = databaseConcurrency
        settings.databaseQueueLimit = databaseQueueLimit
        settings.queryLaneQueueLimit = liveQueryQueueLimit
        settings.maxWatchedQueriesPerClient = maxWatchedQueriesPerClient
        settings.unwatchedQueryLifetime = .seconds(unwatchedQueryLifetime)
        settings.positionalQueueLimit = positionalQueueLimit
        settings.stallTimeout = .seconds(stallTimeout)
        let serviceMetrics = metrics ? ServiceMetrics() : nil
        if let serviceMetrics {
            // Once per process; libraries that use swift-metrics land in the same registry.
            MetricsSystem.bootstrap(serviceMetrics.factory)
            configuration.observer = serviceMetrics.serverObserver
            for store in stores { store.metrics = serviceMetrics.store }
        }
        let hostNames = HostAllowList.defaultNames(listeningOn: host) + allowedHosts
        var access = AccessSettings(anonymousWrites: anonymousWrites, allowedHosts: hostNames, corsOrigins: corsOrigins)
        access.signInLimiterSize = signInLimiterSize
        access.signInLinkLifetime = signInLinks.lifetime
        access.secureCookies = secureCookies
        do {
            let store = try credentials.open()
            if rotateSecret { _ = try store.rotateSessionSecret() }
            access.credentials = store
        } catch {
            logger.critical("cannot open the credentials file \(credentials.credentials): \(error)")
            throw ExitCode.failure
        }
        let postgresProbes: [any ReadinessProbe] = (postgresStore.map { [$0] } ?? []) + (postgresTables.map { [$0] } ?? [])
        let entries = database == nil ? [] : QueryPages.indexEntries(access: sql, canned: siteConfiguration.queries)
        let site = Site(pages: pages, title: title, publicDirectory: publicDirectory, settings: settings, readinessProbes: stores + postgresProbes, logger: logger, metrics: serviceMetrics, access: access, entries: entries)
        // Datasette's JSON API at its own URLs, after the site's routes, which it never shadows.
        var router = site.router
        if let database, let queryRunner {
            // Datasette's URLs name a SQLite file; a PostgreSQL database has none.
            var queries = QueryPages(
                runner: queryRunner, databaseName: datasette == nil ? "" : DatasetteAPI.databaseName(forFile: database), access: sql,
                canned: siteConfiguration.queries, siteTitle: title, accessControl: site.access, logger: logger
            )
            queries.linksLivePages = true
            datasette?.cannedQueries = queries
            datasette?.accessControl = site.access
            datasette?.csvStreamMaxBytes = datasetteCsvMaxBytes
            datasette?.register(on: &router)
            queries.register(on: &router, datasette: datasette != nil)
            logger.notice("the SQL page at \(QueryPages.path) (--sql \(sql.rawValue))")
        } else {
            datasette?.accessControl = site.access
            datasette?.csvStreamMaxBytes = datasetteCsvMaxBytes
            datasette?.register(on: &router)
        }
        if let writers { announce(writers, router: &router, site: site, logger: logger) }
        if writable, let writers {
            // The browser's editing of the tables: forms and writes at /pages/{table}/-/… .
            do {
                try DatabaseTableEditing(writers: writers, pages: pages, access: site.access, siteTitle: title, logger: logger).register(on: &router)
            } catch {
                logger.critical("reading the columns of the tables to edit: \(error)")
                throw ExitCode.failure
            }
        }
        logger.notice("answering for the host names \(hostNames.joined(separator: ", ")); others get 421 (add names with --allowed-host)")
        // Signing in lets one run SQL under `--sql signed-in`, even when no page can be written.
        let signInRunsSQL = sql == .signedIn && database != nil
        let readOnly = pages.pages.allSatisfy(\.access.isReadOnly) && !signInRunsSQL
        let service = SiteService(site: site, configuration: configuration, router: router, logger: logger) { [self] port in
            if readOnly {
                // Nothing can be changed through the web: a sign-in link would promise what it cannot give.
                logger.notice("every page is read-only: no sign-in link")
            } else {
                announceSignIn(site: site, port: port)
            }
        }
        // SIGTERM and SIGINT shut the group down gracefully; the server then lets requests in flight finish.
        let group = ServiceGroup(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        do {
            try await group.run()
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
        for store in stores { store.stopWatching() }
        postgresStore?.stop()
        postgresTables?.stop()
    }

    /// Logs the sign-in link: how a newcomer gets to write. At notice level, or at warning when
    /// that is the log level, so that only `--log-level error` or `critical` hides it.
    private func announceSignIn(site: Site, port: Int) {
        // A wildcard address is not one a browser can open; this machine's loopback is.
        let address = switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "[::1]"
        case let name where name.contains(":"): "[" + name + "]"
        default: host
        }
        site.access.logSignInLink(at: "http://\(address):\(port)", level: logLevel == .warning ? .warning : .notice)
    }

    /// Logs which tables of `--database` can be edited and by whom, and with `--writable` serves
    /// the audit trail's page.
    private func announce(_ writers: TableWriters, router: inout Router, site: Site, logger: Logger) {
        let readOnly = writers.readOnlyTables.map(\.table).joined(separator: ", ")
        guard writable else {
            logger.notice("the tables of \(database ?? "") are read-only (edit them with --writable)")
            return
        }
        let tables = writers.writableTables.isEmpty ? "none" : writers.writableTables.joined(separator: ", ")
        logger.notice("editable by signed-in browsers and by tokens allowed to write them: \(tables)\(readOnly.isEmpty ? "" : "; read-only: " + readOnly)")
        if let page = AuditPages(writers: writers, siteTitle: title, accessControl: site.access, logger: logger) {
            page.register(on: &router)
            let place = database.map(PostgresURL.isPostgresURL) == true ? "\(DatabaseAuditTrail.postgresSchema).audit_log" : credentials.credentials
            logger.notice("every write is kept in the audit trail (\(place), at most \(auditMaxRows) rows), at \(AuditPages.path) for signed-in browsers and tokens that may write")
        }
    }

    /// The pages to serve and the stores behind them: the examples by default (on PostgreSQL with
    /// `--postgres`), a user's database with `--database` — a SQLite file or a PostgreSQL URL —
    /// (plus the examples with `--examples`), and the writers of its tables.
    private func makePages(configuration: SiteConfiguration, logger: Logger) async throws -> (PageRegistry, [Store], PostgresStore?, PostgresTablePages?, DatasetteAPI?, (any QueryRunner)?, TableWriters?) {
        var pages = PageRegistry()
        var datasette: DatasetteAPI?
        var stores: [Store] = []
        var postgresStore: PostgresStore?
        var postgresTables: PostgresTablePages?
        var queryRunner: (any QueryRunner)?
        var writers: TableWriters?
        if let database, PostgresURL.isPostgresURL(database) {
            // Off the cooperative pool: reading a PostgreSQL catalog blocks the thread.
            let command = self
            (pages, postgresTables) = try await OwnThread.run { try command.registerPostgresTables(database, configuration: configuration, logger: logger) }
            writers = postgresTables?.writers
            if let postgresTables {
                // One runner for the SQL page, the canned queries and their live pages, as a reader role.
                let (limits, readerURL) = (queryLimits, try sqlURL.map { try PostgresURL($0, defaultTLSMode: .disable) })
                let (runner, refusal) = try await OwnThread.run { try postgresTables.queryRunner(url: readerURL, limits: limits, logger: logger) }
                if let refusal {
                    guard configuration.queries.isEmpty else { throw CannedQueriesNeedReader(refusal: refusal) }
                    if sql != .off { logger.warning("\(refusal)") }
                }
                if let config { try await OwnThread.run { try configuration.checkQueries(with: runner, path: config) } }
                LiveQueryPages.register(configuration.queries, runner: runner, maxVariants: sqlLiveQueries, onChange: postgresTables.onChange, in: &pages)
                LiveQueryPages.registerSQL(runner: runner, access: sql, maxQueries: sqlLiveQueries, onChange: postgresTables.onChange, in: &pages)
                queryRunner = runner
            }
        }
        if database == nil || examples {
            if let postgres {
                let url = try PostgresURL(postgres)
                let store = try await ExamplePages.open(postgres: url, maximumConnections: postgresConnections, logger: logger)
                store.queryTimeLimit = queryTimeLimit > 0 ? .milliseconds(queryTimeLimit) : nil
                try ExamplePages.register(store: store, in: &pages)
                store.startWatching()
                postgresStore = store
                logger.notice("serving the example pages from \(url)")
            } else {
                let store = try ExamplePages.open(at: examplesDatabase)
                try ExamplePages.register(store: store, in: &pages)
                stores.append(store)
                logger.notice("serving the example pages from \(examplesDatabase)")
            }
        }
        if let database, !PostgresURL.isPostgresURL(database) {
            let store = try Store.openExisting(path: database, writable: writable, logger: logger)
            let tables: [String]
            if writable {
                // In the credentials file (TablePages' own, mode 0600), never the served database.
                let audit = try DatabaseAuditTrail.sqlite(path: credentials.credentials, maxRows: auditMaxRows)
                let made = try DatabaseTablePages.registerWritable(store: store, in: &pages, tables: configuration.tables, sqlPage: sqlPage, audit: audit, logger: logger)
                tables = made.writableTables + made.readOnlyTables.map(\.table)
                writers = made
            } else {
                tables = try DatabaseTablePages.register(store: store, in: &pages, tables: configuration.tables, sqlPage: sqlPage)
                writers = TableWriters.readOnly(tables)
            }
            if tables.isEmpty { logger.warning("\(database) has no tables to serve") }
            if let config { try configuration.checkTables(against: tables, path: config) }
            // One runner for the SQL page, the canned queries and their live pages.
            let runner = try QueryPages.sqliteRunner(path: database, limits: queryLimits)
            if let config { try await OwnThread.run { try configuration.checkQueries(with: runner, path: config) } }
            // SQLite tells only that the file changed, not which tables: every live query re-runs.
            let onChange = { (heard: @escaping @Sendable (ChangedTables) -> Void) in store.onChange { heard(.unknown) } }
            LiveQueryPages.register(configuration.queries, runner: runner, maxVariants: sqlLiveQueries, onChange: onChange, in: &pages)
            LiveQueryPages.registerSQL(runner: runner, access: sql, maxQueries: sqlLiveQueries, onChange: onChange, in: &pages)
            queryRunner = runner
            stores.append(store)
            logger.notice("serving the tables of \(database) (\(writable ? "writable" : "read-only"))")
            let name = DatasetteAPI.databaseName(forFile: database)
            if let refusal = DatasetteAPI.refusal(ofDatabaseName: name) {
                logger.warning("\(refusal)")
            } else {
                let api = try DatasetteAPI(store: store, databaseName: name, labelColumns: configuration.tables.compactMapValues(\.labelColumn), logger: logger)
                logger.notice("Datasette's JSON API at \(api.path)/{table}.json")
                datasette = api
            }
        }
        for store in stores {
            store.queryTimeLimit = queryTimeLimit > 0 ? .milliseconds(queryTimeLimit) : nil
            store.startWatching()
        }
        return (pages, stores, postgresStore, postgresTables, datasette, queryRunner, writers)
    }

    /// The limits of the SQL page's and canned queries' queries.
    private var queryLimits: QueryLimits {
        var limits = QueryLimits()
        limits.rows = sqlRowLimit
        limits.bytes = sqlResultSize
        limits.time = queryTimeLimit > 0 ? .milliseconds(queryTimeLimit) : nil
        return limits
    }

    /// The SQL page's path when `--sql` lets anyone at all run SQL: table pages link their rows' query there.
    private var sqlPage: String? { sql == .off ? nil : QueryPages.path }

    /// A PostgreSQL database's tables as pages (`--database postgresql://…`), in a registry of their
    /// own; blocks its thread while it reads the catalog.
    private func registerPostgresTables(_ database: String, configuration: SiteConfiguration, logger: Logger) throws -> (PageRegistry, PostgresTablePages) {
        var pages = PageRegistry()
        // `disable` unless the URL says otherwise: `--database`'s documented default, unlike `--postgres`'s libpq `prefer`.
        let url = try PostgresURL(database, defaultTLSMode: .disable)
        let served = try PostgresTablePages.register(
            url: url, namespace: schema, watch: watch, writable: writable,
            queryTimeLimit: queryTimeLimit > 0 ? .milliseconds(queryTimeLimit) : nil,
            maximumConnections: databaseConcurrency + 2, tables: configuration.tables, sqlPage: sqlPage, auditMaxRows: auditMaxRows, in: &pages, logger: logger
        )
        if let config { try configuration.checkTables(against: pages.pages.map(\.name), path: config) }
        if served.tables.isEmpty { logger.warning("\(url) has no tables with a primary key to serve in schema \(schema)") }
        if !served.tablesWithoutKey.isEmpty {
            logger.warning("not served, for want of a primary key: \(served.tablesWithoutKey.joined(separator: ", "))")
        }
        served.start()
        logger.notice("serving the tables of \(url) schema \(schema) (\(writable ? "writable" : "read-only"), \(watch ? "changes by LISTEN" : "changes by polling"))")
        return (pages, served)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension LogFormat: ExpressibleByArgument {}
extension QueryAccess: ExpressibleByArgument {}
