import Logging
import PostgresNIO
import Synchronization
import TableStore

/// A PostgreSQL database shared by several TablePages instances: pages read and write it through
/// ``/TableStore/SQLSession``s, and learn about every change — from this instance, another
/// instance, or any other client — from one listening connection (LISTEN/NOTIFY, fed by the
/// triggers of ``PostgresChangeClock``).
///
///     let store = try PostgresStore(url: PostgresURL("postgresql://app@db/tables"))
///     store.onChange { feed.notify() }
///     store.startWatching()
///     try store.transaction { db in try db.execute("UPDATE todo SET isDone = NOT isDone WHERE id = ?", [3]) }
///
/// Reads and writes block their thread while a connection from a pool of at most
/// ``maximumConnections`` runs them: call them from a database lane, never from Swift's
/// cooperative pool or an event loop.
public final class PostgresStore: SQLStore {
    /// The database, without its password.
    public let url: PostgresURL
    /// The most connections the pool opens for reads and writes (the listening connection is one more).
    public let maximumConnections: Int
    /// How long a read or write waits for a free connection before it fails.
    public let connectionWait: Duration
    private let client: PostgresClient
    private let clientTask: Mutex<Task<Void, Never>?>
    private let listener: PostgresChangeListener
    private let observers: ChangeObservers
    private let logger: Logger
    // PostgreSQL's `statement_timeout` counts milliseconds.
    private let queryTimeLimitSetting = QueryTimeLimitSetting(.seconds(1), resolution: .milliseconds(1))

    /// The most connections by default: one per database lane with room for `/readyz`'s probe.
    public static let defaultMaximumConnections = 8

    /// A store on `url` with a pool of at most `maximumConnections`; connects lazily, and starts
    /// the pool's background work at once (stop it with ``stop()``).
    public init(url: PostgresURL, maximumConnections: Int = defaultMaximumConnections, connectionWait: Duration = .seconds(10), logger: Logger = Logger(label: "TableStorePostgres")) throws {
        self.url = url
        self.maximumConnections = maximumConnections
        self.connectionWait = connectionWait
        self.logger = logger
        var configuration = try url.clientConfiguration()
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        clientTask = Mutex(Task { await client.run() })
        let observers = ChangeObservers()
        self.observers = observers
        listener = PostgresChangeListener(
            configuration: try url.connectionConfiguration(applicationName: "tablepages-listener"), logger: logger,
            onChange: { _ in observers.notify() }, onResume: { observers.notify() }
        )
    }

    /// PostgreSQL.
    public var dialect: SQLDialect { .postgresql }

    /// The longest one read may run before PostgreSQL cancels it (`statement_timeout`); nil for no
    /// limit. One second by default, as SQLite's ``/TableStore/Store/queryTimeLimit``.
    public var queryTimeLimit: Duration? {
        get { queryTimeLimitSetting.limit }
        set { queryTimeLimitSetting.limit = newValue }
    }

    /// Reads in one snapshot (a read-only, repeatable-read transaction), blocking this thread.
    public func snapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        let limit = queryTimeLimitSetting.milliseconds
        return try inTransaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", setup: limit > 0 ? "SET LOCAL statement_timeout = \(limit)" : nil, body)
    }

    /// Writes in one transaction, blocking this thread; when it returns the commit is durable
    /// (as PostgreSQL's `synchronous_commit` makes it: on, by default), and this instance's pages
    /// are told at once rather than when the notification comes back.
    public func transaction<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        let result = try inTransaction(begin: "BEGIN", setup: nil, body)
        notifyObservers()
        return result
    }

    /// Runs `body` in a transaction holding a transaction-level advisory lock: instances that
    /// start together migrate one after the other, and the later ones find the work done.
    public func exclusively<T: Sendable>(lock key: Int64, _ body: (any SQLSession) throws -> T) throws -> T {
        try transaction { db in
            try db.execute("SELECT pg_advisory_xact_lock(?)", [.integer(key)])
            return try body(db)
        }
    }

    /// The version clock's value (see ``PostgresChangeClock``); nil before the clock's migration
    /// ran. One statement, one round trip, since pages read it before and after every re-read.
    public func dataVersion() throws -> Int? {
        let lease = try PostgresLease(client: client, timeout: connectionWait)
        defer { lease.release() }
        let version = try PostgresSession(connection: lease.connection, logger: logger).row(PostgresChangeClock.currentVersionQuery)?.int64(0)
        return version.map(Int.init)
    }

    /// Calls `observer` after every change any writer commits to a watched table, and whenever
    /// the listening connection (re)connects (when changes may have been missed).
    public func onChange(_ observer: @escaping @Sendable () -> Void) {
        observers.add(observer)
    }

    /// Opens the listening connection (and keeps it open, reconnecting with backoff).
    public func startWatching() {
        listener.start()
    }

    /// Whether the listening connection is up, so that changes from elsewhere are seen.
    public var isListening: Bool { listener.isListening }

    /// The highest clock version a notification carried so far.
    public var lastNotifiedVersion: Int64? { listener.lastNotifiedVersion }

    /// Stops listening and closes the pool.
    public func stop() {
        listener.stop()
        clientTask.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    private func notifyObservers() {
        observers.notify()
    }

    private func inTransaction<T>(begin: String, setup: String?, _ body: (any SQLSession) throws -> T) throws -> T {
        let lease = try PostgresLease(client: client, timeout: connectionWait)
        defer { lease.release() }
        let session = PostgresSession(connection: lease.connection, logger: logger)
        try session.execute(begin)
        do {
            if let setup { try session.execute(setup) }
            let result = try body(session)
            try session.execute("COMMIT")
            return result
        } catch {
            // A broken connection cannot roll back; the server does when it notices.
            try? session.execute("ROLLBACK")
            throw error
        }
    }
}
