import TableStore
import TableStorePostgres
import Foundation
import Logging
import PostgresNIO
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
///     var pages = PageRegistry()
///     let served = try PostgresTablePages.register(url: url, namespace: "public", watch: true, in: &pages)
///     served.start()
public final class PostgresTablePages: Sendable {
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
    /// The tables served, by name.
    public var tables: [String] { servedTables }
    /// Tables left out because they have no primary key.
    public let tablesWithoutKey: [String]
    /// Whether changes arrive by `LISTEN` (else by polling).
    public let watches: Bool
    /// The writers of the tables, when registered `writable` (else every table is read-only).
    public let writers: TableWriters

    /// Whether, with `watch`, a `LISTEN` is in effect (a connection that stopped delivering
    /// counts as not listening once its heartbeat is overdue).
    public var isListening: Bool { listening.load(ordering: .acquiring) }

    /// The database, for messages.
    let url: PostgresURL
    /// Runs the pages' reads (and the readiness probe's).
    let executor: PostgresTableExecutor
    private let client: PostgresClient
    private let listenerClient: PostgresClient?
    /// Each table's feeds: its own pages', and those of the pages that read it too (a table
    /// showing its rows' labels, a view); a table may be named several times.
    private let feeds: [(table: String, feed: ChangeFeed)]
    /// Called after any change of a served table, with the table when known (``onChange(_:)``).
    let changeObservers = Mutex<[@Sendable (ChangedTables) -> Void]>([])
    private let servedTables: [String]
    /// The tasks that run the pools and follow changes, cancelled by ``stop()``.
    let tasks = Mutex<[Task<Void, Never>]>([])
    private let logger: Logger
    // Whether a LISTEN is in effect (readiness fails otherwise), and its heartbeats.
    private let listening = Atomic<Bool>(false)
    private let heartbeat = Mutex(ListenerHeartbeat(limit: PostgresTablePages.listenerLagLimit))
    // Tells this instance's heartbeats from other instances' on the same channel.
    private let heartbeatToken = UUID().uuidString

    private init(url: PostgresURL, executor: PostgresTableExecutor, namespace: String, client: PostgresClient, listenerClient: PostgresClient?, feeds: [(table: String, feed: ChangeFeed)], servedTables: [String], tablesWithoutKey: [String], writers: TableWriters, logger: Logger) {
        self.writers = writers
        self.url = url
        self.executor = executor
        self.namespace = namespace
        self.client = client
        self.listenerClient = listenerClient
        self.feeds = feeds
        self.servedTables = servedTables
        self.tablesWithoutKey = tablesWithoutKey
        self.watches = listenerClient != nil
        self.logger = logger
    }

    /// Connects to `url`, registers a page per table of `namespace` with a primary key, and with
    /// `watch` installs the notifying triggers; call ``start()`` to follow changes, ``stop()`` at
    /// the end. `tables` (a configuration file's) sets tables' titles, descriptions, label columns
    /// and hides them from the index; with `sqlPage` (the SQL page's path, when it is on) each page
    /// links its rows' query there. With `writable`, each table with a primary key gets a
    /// ``/TablePagesDatabase/TableWriter`` (``writers``), keeping its writes in the audit trail
    /// `tablepages.audit_log` (created when missing; at most `auditMaxRows` rows). It blocks
    /// its thread while it reads the catalog: call it from
    /// a thread that may block, not from Swift's cooperative pool.
    /// - Throws: ``PostgresStartupError`` (an unreachable server, a missing privilege to create
    ///   the triggers), or ``/TableStorePostgres/PostgresURL/Invalid``.
    public static func register(
        url: PostgresURL, namespace: String = "public", watch: Bool, writable: Bool = false,
        queryTimeLimit: Duration? = .seconds(1), maximumConnections: Int = 20, tables: [String: TableConfiguration] = [:],
        sqlPage: String? = nil, auditMaxRows: Int = DatabaseAuditTrail.defaultMaxRows, in registry: inout PageRegistry, logger: Logger = Logger(label: "TablePages")
    ) throws -> PostgresTablePages {
        var parameters: [(String, String)] = []
        if let queryTimeLimit {
            parameters.append(("statement_timeout", String(StatementTimeout.milliseconds(queryTimeLimit))))
        }
        if !writable { parameters.append(("default_transaction_read_only", "on")) }
        var configuration = try url.clientConfiguration(applicationName: "tablepages", parameters: parameters)
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let runTask = client.startRunning()
        do {
            let executor = PostgresTableExecutor(client: client, queryTimeLimit: queryTimeLimit, logger: logger)
            var audit: DatabaseAuditTrail?
            if writable {
                do {
                    audit = try DatabaseAuditTrail.postgres(database: executor, maxRows: auditMaxRows)
                } catch {
                    throw PostgresStartupError(step: "creating the audit trail of --writable (CREATE SCHEMA IF NOT EXISTS \(DatabaseAuditTrail.postgresSchema), and a table in it)", error: error)
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
            var listenerClient: PostgresClient?
            if watch {
                do {
                    try installTriggers(on: found.served.map(\.table), namespace: namespace, client: client, logger: logger)
                } catch {
                    throw PostgresStartupError(step: "installing the --watch triggers (CREATE FUNCTION in \(namespace), CREATE TRIGGER on each table)", error: error)
                }
                var listenerConfiguration = try url.clientConfiguration(applicationName: listenerApplicationName)
                listenerConfiguration.options.maximumConnections = 1
                listenerClient = PostgresClient(configuration: listenerConfiguration, backgroundLogger: logger)
            }
            let pages = PostgresTablePages(url: url, executor: executor, namespace: namespace, client: client, listenerClient: listenerClient, feeds: found.served + found.dependents, servedTables: found.served.map(\.table), tablesWithoutKey: found.withoutKey, writers: found.writers, logger: logger)
            pages.tasks.withLock { $0.append(runTask) }
            return pages
        } catch {
            runTask.cancel()
            throw error
        }
    }

    /// Starts following changes: listening (with `watch`) or polling.
    public func start() {
        let task: Task<Void, Never>
        if let listenerClient {
            let listenerRun = listenerClient.startRunning()
            task = Task { [self] in await listen(on: listenerClient) }
            tasks.withLock { $0 += [listenerRun, task] }
        } else {
            task = Task { [self] in await poll() }
            tasks.withLock { $0.append(task) }
        }
    }

    /// Stops following changes and closes the connections; the triggers stay (see docs/operations.md, "A PostgreSQL database").
    public func stop() {
        for task in tasks.withLock({ tasks in defer { tasks = [] }; return tasks }) { task.cancel() }
    }

    private func notifyAll() {
        for (_, feed) in feeds { feed.notify() }
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
        for (table, feed) in feeds where table == names[1] { feed.notify() }
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
