import TableStore
import TableStorePostgres
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization
import TablePages
import TablePagesDatabase

/// Serves every table of one schema of a PostgreSQL database as a page, as
/// ``/TablePagesDatabase/DatabaseTablePages`` serves a SQLite file's: the same queries (keyset
/// paging, sort, group, filters, facets, exports) in PostgreSQL's dialect, on a pool of
/// connections each started with `statement_timeout` (the query time limit) and, unless
/// writable, `default_transaction_read_only`.
///
/// Pages follow the tables' changes in one of two ways:
/// - **watch** (`--watch`): a statement-level trigger on each served table runs
///   `pg_notify('tablepages', '["schema","table"]')`, and one dedicated connection `LISTEN`s; a
///   notification re-reads the pages of that table only, within milliseconds of the commit. When
///   the connection drops, it reconnects with backoff (0.1 s doubling to 5 s) and then re-reads
///   every page, since notifications sent meanwhile are lost. A connection that stays open but
///   stops delivering is noticed by a heartbeat (``heartbeatInterval``, ``listenerLagLimit``),
///   closed and replaced the same way; readiness fails while nothing listens.
/// - **poll** (the default): every ``pollInterval`` one query reads `pg_current_snapshot()`, which
///   changes whenever a transaction that wrote anything in the cluster starts or ends; then every
///   page re-reads. No table is scanned, but every write anywhere re-reads every open page.
///
/// Its PostgreSQL clients (postgres-nio's `PostgresClient`) and the following of changes run while
/// ``run()`` does: put it in the `ServiceGroup` that runs the site, before the site, so that it
/// starts first and stops last. ``register(tables:sqlPage:in:)`` reads the catalog once it runs.
///
///     let served = try PostgresTablePages(url: url, namespace: "public", watch: true)
///     // …in a ServiceGroup, running:
///     var pages = PageRegistry()
///     try served.register(in: &pages)
public final class PostgresTablePages: Service {
    /// The channel the triggers notify and the listener listens on.
    public static let channel = "tablepages"
    /// The name of the trigger function and of each trigger.
    public static let triggerName = "tablepages_notify"
    /// The `application_name` of the listening connection, to find it in `pg_stat_activity`.
    public static let listenerApplicationName = "tablepages listener"
    /// How often, with `watch`, the instance notifies itself a heartbeat to check that the
    /// listening connection delivers.
    public static let heartbeatInterval = Duration.seconds(1)
    /// How long a heartbeat may go undelivered before the listening connection is replaced.
    public static let listenerLagLimit = Duration.seconds(5)
    /// How often the default mode polls.
    public static let pollInterval = Duration.milliseconds(200)
    /// How long one poll waits for its answer before the next is tried.
    static let pollAnswerWait = Duration.seconds(5)

    /// The schema whose tables are served.
    public let namespace: String
    /// The tables served, by name (none before ``register(tables:sqlPage:in:)``).
    public var tables: [String] { registered.withLock { $0.served } }
    /// Tables left out because they have no primary key.
    public var tablesWithoutKey: [String] { registered.withLock { $0.withoutKey } }
    /// The writers of the tables, once registered with `writable` (else every table is read-only).
    public var writers: TableWriters { registered.withLock { $0.writers } }
    /// Whether changes arrive by `LISTEN` (else by polling).
    public let watches: Bool

    /// Whether, with `watch`, a `LISTEN` is in effect (a connection that stopped delivering
    /// counts as not listening once its heartbeat is overdue).
    public var isListening: Bool { listening.load(ordering: .acquiring) }

    /// The database (its password never shows in messages).
    public let url: PostgresURL
    /// The database as the role visitors' SQL runs as, for messages.
    let readerURL: PostgresURL
    /// Runs the pages' reads (and the readiness probe's).
    let executor: PostgresTableExecutor
    private let client: PostgresClient
    private let listenerClient: PostgresClient?
    /// The pool of visitors' SQL (``queryRunner(limits:logger:)``), as ``readerURL``'s role.
    let sqlClient: PostgresClient
    /// What ``register(tables:sqlPage:in:)`` found: the tables served and left out, and each
    /// table's feeds: its own pages', and those of the pages that read it too (a table showing its
    /// rows' labels, a view); a table may be named several times.
    private let registered = Mutex<(served: [String], withoutKey: [String], feeds: [(table: String, feed: ChangeFeed)], writers: TableWriters)>(([], [], [], TableWriters.readOnly([])))
    // With --writable: the tables get writers, which keep an audit trail of at most this many rows.
    private let writable: Bool
    private let auditMaxRows: Int
    /// Called after any change of a served table, with the table when known (``onChange(_:)``).
    let changeObservers = Mutex<[@Sendable (ChangedTables) -> Void]>([])
    private let logger: Logger
    // Whether a LISTEN is in effect (readiness fails otherwise), and its heartbeats.
    private let listening = Atomic<Bool>(false)
    private let heartbeat = Mutex(ListenerHeartbeat(limit: PostgresTablePages.listenerLagLimit))
    // Tells this instance's heartbeats from other instances' on the same channel.
    private let heartbeatToken = UUID().uuidString

    /// The pages of the tables of `namespace` in the database at `url`, as its role, and with
    /// `watch` by triggers and `LISTEN`; visitors' SQL runs as `readerURL`'s role (by default
    /// `url`'s). It makes the clients — a pool of at most `maximumConnections` started with
    /// `statement_timeout` (`queryTimeLimit`) and, unless `writable`, read-only; one listening
    /// connection with `watch`; one pool for visitors' SQL — and connects nothing until ``run()``.
    /// - Throws: ``/TableStorePostgres/PostgresURL/Invalid``.
    public init(
        url: PostgresURL, namespace: String = "public", watch: Bool, writable: Bool = false, auditMaxRows: Int = DatabaseAuditTrail.defaultMaxRows, queryTimeLimit: Duration? = .seconds(1),
        maximumConnections: Int = 20, readerURL: PostgresURL? = nil, logger: Logger = Logger(label: "TablePages")
    ) throws {
        var parameters: [(String, String)] = []
        if let queryTimeLimit {
            parameters.append(("statement_timeout", String(StatementTimeout.milliseconds(queryTimeLimit))))
        }
        if !writable { parameters.append(("default_transaction_read_only", "on")) }
        var configuration = try url.clientConfiguration(applicationName: "tablepages", parameters: parameters)
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        if watch {
            var listenerConfiguration = try url.clientConfiguration(applicationName: PostgresTablePages.listenerApplicationName)
            listenerConfiguration.options.maximumConnections = 1
            listenerClient = PostgresClient(configuration: listenerConfiguration, backgroundLogger: logger)
        } else {
            listenerClient = nil
        }
        let reader = readerURL ?? url
        var sqlConfiguration = try reader.clientConfiguration(applicationName: PostgresTablePages.sqlApplicationName, parameters: [("default_transaction_read_only", "on")])
        // One at a time (the runner's turn), and one more while a connection that could not be reset closes.
        sqlConfiguration.options.maximumConnections = 2
        sqlClient = PostgresClient(configuration: sqlConfiguration, backgroundLogger: logger)
        self.client = client
        self.url = url
        self.readerURL = reader
        self.executor = PostgresTableExecutor(client: client, queryTimeLimit: queryTimeLimit, logger: logger)
        self.namespace = namespace
        self.watches = watch
        self.logger = logger
        self.writable = writable
        self.auditMaxRows = auditMaxRows
    }

    /// Registers a page per table of ``namespace`` with a primary key, and with `watch` installs
    /// the notifying triggers; call it while ``run()`` runs. `tables` (a configuration file's)
    /// sets tables' titles, descriptions, label columns and hides them from the index; with
    /// `sqlPage` (the SQL page's path, when it is on) each page links its rows' query there.
    /// Made `writable`, each table with a primary key gets a ``/TablePagesDatabase/TableWriter``
    /// (``writers``), keeping its writes in the audit trail `tablepages.audit_log` (created when
    /// missing; at most `auditMaxRows` rows). It blocks its thread while it reads the catalog:
    /// call it from a thread that may block, not from Swift's cooperative pool.
    /// - Throws: ``PostgresStartupError`` (an unreachable server, a missing privilege to create
    ///   the triggers or the audit trail).
    public func register(tables: [String: TableConfiguration] = [:], sqlPage: String? = nil, in registry: inout PageRegistry) throws {
        var audit: DatabaseAuditTrail?
        if writable {
            do {
                audit = try DatabaseAuditTrail.postgres(database: executor, maxRows: auditMaxRows)
            } catch {
                throw PostgresStartupError(step: "creating the audit trail of --writable (CREATE SCHEMA IF NOT EXISTS \(DatabaseAuditTrail.postgresSchema), and a table in it)", error: error)
            }
            if let audit, audit.lacksRowSecurity {
                logger.warning("""
                    the audit trail \(DatabaseAuditTrail.postgresTable) has no row-level security, and this role, not its owner, cannot give it any: \
                    a role with pg_read_all_data or SELECT on it reads every entry, and visitors' SQL refuses to run as one; \
                    its owner should run: \(DatabaseAuditTrail.rowSecurityStatements().joined(separator: " "))
                    """)
            }
        }
        let found: (served: [(table: String, feed: ChangeFeed)], withoutKey: [String], dependents: [(table: String, feed: ChangeFeed)], writers: TableWriters)
        do {
            found = try DatabaseTablePages.registerPostgres(
                database: executor, namespace: namespace, in: &registry, tables: tables, sqlPage: sqlPage,
                writing: writable ? executor : nil, audit: audit, logger: logger
            )
        } catch {
            throw PostgresStartupError(step: "reading the tables of schema \(namespace) of \(url)", error: error)
        }
        if watches {
            do {
                try Self.installTriggers(on: found.served.map(\.table), namespace: namespace, client: client, logger: logger)
            } catch {
                throw PostgresStartupError(step: "installing the --watch triggers (CREATE FUNCTION in \(namespace), CREATE TRIGGER on each table)", error: error)
            }
        }
        registered.withLock { $0 = (found.served.map(\.table), found.withoutKey, found.served + found.dependents, found.writers) }
        // Changes made while the catalog was read reached no page yet.
        notifyAll()
    }

    /// Runs the clients (postgres-nio's `PostgresClient.run()`) and follows changes — listening
    /// (with `watch`) or polling — until the `ServiceGroup` shuts down gracefully, or until
    /// cancelled; the connections are closed then. The triggers stay (see docs/operations.md,
    /// "A PostgreSQL database").
    public func run() async throws {
        let pools = [client, sqlClient] + (listenerClient.map { [$0] } ?? [])
        await withDiscardingTaskGroup { group in
            for pool in pools {
                group.addTask { await pool.run() }
            }
            group.addTask { [self] in
                await cancelWhenGracefulShutdown { [self] in
                    if let listenerClient { await listen(on: listenerClient) } else { await poll() }
                }
            }
        }
    }

    private func notifyAll() {
        for (_, feed) in registered.withLock({ $0.feeds }) { feed.notify() }
        notifyObservers(.unknown)
    }

    private func notifyObservers(_ change: ChangedTables) {
        for observer in changeObservers.withLock({ $0 }) { observer(change) }
    }

    // MARK: Watching

    /// Creates the trigger function in `namespace` and a statement-level trigger on each table,
    /// in one transaction: the function needs CREATE on the schema, each trigger ownership of its
    /// table (or the TRIGGER privilege on it, with the function already there).
    private static func installTriggers(on tables: [String], namespace: String, client: PostgresClient, logger: Logger) throws {
        guard !tables.isEmpty else { return }
        let schema = SQLIdentifier.quoted(namespace)
        let function = "\(schema).\(triggerName)"
        var statements = [
            "BEGIN READ WRITE",
            // Qualified names: a trigger runs with the writer's search_path.
            """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $tablepages$
            BEGIN
                PERFORM pg_catalog.pg_notify('\(channel)', pg_catalog.json_build_array(TG_TABLE_SCHEMA, TG_TABLE_NAME)::text);
                RETURN NULL;
            END $tablepages$
            """,
        ]
        for table in tables {
            let target = "\(schema).\(SQLIdentifier.quoted(table))"
            statements.append("DROP TRIGGER IF EXISTS \(triggerName) ON \(target)")
            statements.append("CREATE TRIGGER \(triggerName) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(target) FOR EACH STATEMENT EXECUTE FUNCTION \(function)()")
        }
        statements.append("COMMIT")
        let script = statements
        try BlockingWait.run(within: .seconds(60)) {
            try await client.withConnection { connection in
                do {
                    for statement in script {
                        _ = try await connection.allRows(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                } catch {
                    _ = try? await connection.allRows("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }
    }

    /// Listens until cancelled, reconnecting with backoff; every (re)connection re-reads all pages.
    private func listen(on listenerClient: PostgresClient) async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await listenerClient.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        delay = .milliseconds(100)
                        heartbeat.withLock { $0.restart() }
                        listening.store(true, ordering: .releasing)
                        defer { listening.store(false, ordering: .releasing) }
                        logger.info("listening for changes to the tables of \(namespace) on PostgreSQL channel \(Self.channel)")
                        // Notifications sent while no connection listened are lost.
                        notifyAll()
                        do {
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                group.addTask { [self] in
                                    for try await notification in notifications { route(notification.payload) }
                                }
                                group.addTask { [self] in try await sendHeartbeats() }
                                try await group.next()
                                group.cancelAll()
                            }
                        } catch let stalled as ListenerStalled {
                            // Closed before it goes back to the pool: an UNLISTEN sent on it would
                            // never be answered, and the pool would lend it again.
                            try? await connection.close()
                            throw stalled
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                logger.warning("PostgreSQL listening connection lost (\(String(reflecting: error))); reconnecting in \(delay)")
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// Notifies this instance a numbered heartbeat every ``heartbeatInterval`` over the pages'
    /// pool, until cancelled or until one goes unheard for ``listenerLagLimit``.
    private func sendHeartbeats() async throws {
        var number = 0
        while true {
            try await Task.sleep(for: Self.heartbeatInterval)
            if heartbeat.withLock({ $0.isStalled(at: .now) }) { throw ListenerStalled(limit: Self.listenerLagLimit) }
            number += 1
            let payload = "\(Self.heartbeatPrefix)\(heartbeatToken) \(number)"
            do {
                // Bounded: a statement sent on a connection that just closed would never be answered.
                let (client, logger) = (client, logger)
                _ = try await WaitTimedOut.run(within: Self.pollAnswerWait) {
                    try await client.withConnection { try await $0.allRows("SELECT pg_catalog.pg_notify(\(Self.channel), \(payload))", logger: logger) }
                }
                // Committed: PostgreSQL delivers it to every connection listening now.
                let (sent, now) = (number, ContinuousClock.now)
                heartbeat.withLock { $0.sent(sent, at: now) }
            } catch {
                // The database is unreachable: the listening connection finds that out itself.
                logger.debug("PostgreSQL heartbeat not sent: \(String(reflecting: error))")
            }
        }
    }

    /// The start of a heartbeat's payload, before the sending instance's token and its number.
    private static let heartbeatPrefix = "tablepages-heartbeat "

    /// Notifies the feed of the table a trigger named; anything unexpected re-reads everything.
    private func route(_ payload: String) {
        if payload.hasPrefix(Self.heartbeatPrefix) {
            let parts = payload.dropFirst(Self.heartbeatPrefix.count).split(separator: " ")
            if parts.count == 2, parts[0] == heartbeatToken, let number = Int(parts[1]) {
                heartbeat.withLock { $0.heard(number) }
            }
            // Another instance's heartbeat says nothing about the tables.
            return
        }
        guard let names = try? JSONDecoder().decode([String].self, from: Data(payload.utf8)), names.count == 2 else {
            notifyAll()
            return
        }
        guard names[0] == namespace else { return }
        for (table, feed) in registered.withLock({ $0.feeds }) where table == names[1] { feed.notify() }
        notifyObservers(ChangedTables([names[1]]))
    }

    // MARK: Polling

    /// Polls `pg_current_snapshot()` until cancelled; a change re-reads every page.
    private func poll() async {
        var last: String?
        var missed = false
        while !Task.isCancelled {
            do {
                // Bounded: a poll sent on a connection that just closed would never be answered.
                let (client, logger) = (client, logger)
                let rows = try await WaitTimedOut.run(within: Self.pollAnswerWait) {
                    try await client.withConnection { try await $0.allRows("SELECT pg_catalog.pg_current_snapshot()::text", logger: logger) }
                }
                let snapshot = try rows.first?.decode(String.self)
                if missed || (last != nil && snapshot != last) { notifyAll() }
                (last, missed) = (snapshot, false)
            } catch {
                logger.debug("PostgreSQL change poll failed: \(String(reflecting: error))")
                // After an outage, re-read once the server answers again.
                missed = true
            }
            try? await Task.sleep(for: Self.pollInterval)
        }
    }
}
