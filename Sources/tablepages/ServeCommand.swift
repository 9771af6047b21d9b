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
        discussion: "Each table of the database becomes writable for actors whose access allows writes to its page (the sign-in link's browsers; tokens that may write it); views, and PostgreSQL tables without a primary key, stay read-only. A SQLite table without a primary key is written by rowid. In the browser: double-click a value (or F2) to edit it, \"Add a row\" to insert or paste rows, and a row's page to edit every column or delete it; Datasette's write API answers at its URLs. Every write is one transaction, checked by the database's own rules; an edit made on a row someone changed since is refused (409) with both values, never written over; every viewer of the table, its row pages and live queries sees each write live; and each is kept in the audit trail (see --audit-max-rows) at /-/audit, and its author can undo it."
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

    @Option(help: "With --database and --writable: the most rows one request to Datasette's write API may insert or upsert (/{database}/{table}/-/insert, /-/upsert, /-/create with rows; its max_insert_rows); more are a 400.")
    var datasetteMaxInsertRows = DatasetteAPI.defaultMaxInsertRows

    @Option(help: "With --writable: the most rows pasted from a spreadsheet into a table's insert form that one paste writes (in one transaction); more are a 400 that names the count.")
    var maxPastedRows = DatabaseTableEditing.defaultMaxPastedRows

    @Option(help: "With --writable: the most rows of a referenced table that a foreign-key column's editor lists by label; past it, the value is typed.")
    var maxForeignKeyChoices = DatabaseTableEditing.defaultMaxChoices

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
        discussion: "Without it, visitors' SQL runs as --database's role if that role can only read. A superuser, a role with REPLICATION, BYPASSRLS or CREATEROLE, a member of pg_read_server_files, pg_write_server_files, pg_execute_server_program, pg_signal_backend, pg_monitor (and its parts) or pg_write_all_data, a role that may write a table, or one that may read an audit trail lacking row-level security is refused: the SQL page answers 403 saying so, and canned queries (--config) stop the server (see docs/operations.md, A PostgreSQL database).",
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

    func run() async throws {
        let (level, format) = (logLevel, logFormat)
        LoggingSystem.bootstrap { label in
            LineLogHandler(label: label, format: format, output: .standardError, logLevel: level)
        }
        let logger = Logger(label: "tablepages")
        var server = serverConfiguration
        let serviceMetrics = metrics ? ServiceMetrics() : nil
        if let serviceMetrics {
            // Once per process; libraries that use swift-metrics land in the same registry.
            MetricsSystem.bootstrap(serviceMetrics.factory)
            server.observer = serviceMetrics.serverObserver
        }
        let configuration = server
        let siteConfiguration: SiteConfiguration
        let databases: PostgresDatabases
        let access: AccessSettings
        do {
            siteConfiguration = try config.map(SiteConfiguration.load(path:)) ?? SiteConfiguration()
            databases = try makePostgresDatabases(logger: logger)
            access = try accessSettings(logger: logger)
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
        // Built once the PostgreSQL clients before it in the group run: its features read their catalogs.
        let startup = SiteStartup(logger: logger) { [self] in
            let features = try await makeFeatures(configuration: siteConfiguration, databases: databases, storeMetrics: serviceMetrics?.store, logger: logger)
            let site = Site(title: title, features: features, publicDirectory: publicDirectory, settings: liveSettings, logger: logger, metrics: serviceMetrics, access: access)
            logger.notice("answering for the host names \(access.allowedHosts.joined(separator: ", ")); others get 421 (add names with --allowed-host)")
            // Signing in lets one run SQL under `--sql signed-in`, even when no page can be written.
            let signInRunsSQL = sql == .signedIn && database != nil
            // A --writable SQLite file's tables created while it runs are writable, even when none is there yet.
            let tablesMayComeWritable = writable && database != nil && !PostgresURL.isPostgresURL(database ?? "")
            let readOnly = site.pages.pages.allSatisfy(\.access.isReadOnly) && !signInRunsSQL && !tablesMayComeWritable
            return SiteService(site: site, configuration: configuration, logger: logger) { port in
                if readOnly {
                    // Nothing can be changed through the web: a sign-in link would promise what it cannot give.
                    logger.notice("every page is read-only: no sign-in link")
                } else {
                    announceSignIn(site: site, port: port)
                }
            }
        }
        // SIGTERM and SIGINT shut the group down gracefully, in reverse: the server first, letting
        // requests in flight finish, then what the features run beside it, then the databases.
        let group = ServiceGroup(services: databases.services + [startup], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        do {
            try await group.run()
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
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
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension LogFormat: ExpressibleByArgument {}
extension QueryAccess: ExpressibleByArgument {}
