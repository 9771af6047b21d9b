import GRDB
import Logging
import Synchronization

/// A SQLite database through GRDB, plus the one signal live pages need from it: "the data changed",
/// whoever changed it — this process, another server instance, or a script with the `sqlite3` shell.
///
///     let store = try Store.open(path: "tablepages.sqlite", migrator: ExampleSchema.migrator)
///     let stop = store.onChange { print("changed") }
///     try store.write { db in try db.execute(sql: "UPDATE product SET price = 3 WHERE id = 1") }
///
/// Changes are found by watching SQLite's `PRAGMA data_version` on a connection of its own, which
/// moves whenever any other connection commits: one mechanism for every writer.
public final class Store: Sendable {
    /// Why a store could not be opened.
    public struct OpenError: Error, CustomStringConvertible {
        /// What went wrong, for the operator.
        public let description: String
    }

    /// The database file's path.
    public let path: String
    /// Reads run here.
    public let reader: any DatabaseReader
    /// Writes run here; nil when the database was opened read-only.
    public let writer: (any DatabaseWriter)?
    private let watcher: ChangeWatcher
    // A database in WAL mode (a pool of readers) also lends connections of the store's own to
    // reads without a snapshot; one in another journal mode reads on its one connection.
    private let ownReaders: ReadConnections?
    private let queryTimeLimitSetting = QueryTimeLimitSetting(.seconds(1))
    private let metricsBox = Mutex<StoreMetrics?>(nil)

    /// Where reads and writes are counted and timed; nil (the default) for nowhere, at no cost.
    public var metrics: StoreMetrics? {
        get { metricsBox.withLock { $0 } }
        set { metricsBox.withLock { $0 = newValue } }
    }

    /// The longest one ``read(_:)`` may run before SQLite is interrupted and the read throws
    /// ``QueryTimeLimitExceeded``; nil for no limit. One second by default, as Datasette's
    /// `sql_time_limit_ms`: long enough for any indexed page, short enough that a request for an
    /// unindexed sort of a huge table cannot hold a database connection and a core for long.
    /// Writes are not limited: a write stopped halfway would be rolled back, but its caller has
    /// no better way to make it cheaper.
    public var queryTimeLimit: Duration? {
        get { queryTimeLimitSetting.limit }
        set { queryTimeLimitSetting.limit = newValue }
    }

    private init(path: String, reader: any DatabaseReader, writer: (any DatabaseWriter)?, watcher: ChangeWatcher) {
        self.path = path
        self.reader = reader
        self.writer = writer
        self.watcher = watcher
        self.ownReaders = reader is DatabasePool ? ReadConnections(path: path, busyTimeout: Self.busyTimeout) : nil
    }

    /// How many of the store's own read connections are idle (`readWithoutSnapshot(_:)`); nil
    /// when it has none (a database not in WAL mode).
    var idleReadConnectionCount: Int? { ownReaders?.idleCount }

    /// How long a read or write waits, in seconds, while another process holds a lock, rather than fail.
    private static let busyTimeout = 5.0

    /// Opens (creating it if needed) a database the server owns: WAL mode, and `synchronous=FULL` so
    /// that a write, once acknowledged, survives the process being killed (and the machine losing
    /// power). The migrator brings the schema up to date.
    public static func open(path: String, migrator: DatabaseMigrator, logger: Logger = Logger(label: "TableStore")) throws -> Store {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        // Readers wait rather than fail while another process holds a lock.
        configuration.busyMode = .timeout(busyTimeout)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try migrator.migrate(pool)
        return Store(path: path, reader: pool, writer: pool, watcher: try ChangeWatcher(path: path, logger: logger))
    }

    /// Opens a user's existing database, read-only unless `writable`. It is opened as it is: its
    /// journal mode is left alone, and a missing file is an error rather than an empty new database.
    /// A database in WAL mode gets a pool of reader connections, so reads run concurrently; in
    /// another journal mode one connection serves reads one at a time.
    public static func openExisting(path: String, writable: Bool, logger: Logger = Logger(label: "TableStore")) throws -> Store {
        guard FileSystem.isReadableFile(path) else {
            throw OpenError(description: "cannot read the database file '\(path)'")
        }
        var configuration = Configuration()
        configuration.readonly = !writable
        configuration.busyMode = .timeout(busyTimeout)
        let database: any DatabaseWriter
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Opening is lazy in SQLite; reading the schema proves it is a database.
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            // In WAL mode, readers on connections of their own run side by side (a page's slow
            // query does not hold up the others); otherwise one connection serves everything.
            if try queue.read({ try String.fetchOne($0, sql: "PRAGMA journal_mode") }) == "wal" {
                try queue.close()
                database = try DatabasePool(path: path, configuration: configuration)
            } else {
                database = queue
            }
        } catch {
            throw OpenError(description: "'\(path)' is not a readable SQLite database: \(error)")
        }
        return Store(path: path, reader: database, writer: writable ? database : nil, watcher: try ChangeWatcher(path: path, logger: logger))
    }

    /// Reads in a snapshot of the database, for at most ``queryTimeLimit``.
    ///
    /// It blocks its thread until SQLite answers: call it from a thread that may block (a page's
    /// delegates run on a database lane of their own), not from Swift's cooperative pool.
    /// - Throws: ``QueryTimeLimitExceeded`` when the read ran past the limit, or GRDB's errors.
    public func read<T: Sendable>(_ value: (Database) throws -> T) throws -> T {
        try measuredRead(isolated: true, value)
    }

    /// Reads as ``read(_:)`` does but in no transaction: each statement sees the database as last
    /// committed when it starts. In WAL mode the read runs on a read-only connection of the store's
    /// own (at most 8 kept idle), not through GRDB's pool of readers.
    public func readWithoutSnapshot<T: Sendable>(_ value: (Database) throws -> T) throws -> T {
        try measuredRead(isolated: false, value)
    }

    private func measuredRead<T: Sendable>(isolated: Bool, _ value: (Database) throws -> T) throws -> T {
        guard let metrics else { return try unmeasuredRead(isolated: isolated, value) }
        return try metrics.measure(metrics.reads) { try unmeasuredRead(isolated: isolated, value) }
    }

    private func unmeasuredRead<T: Sendable>(isolated: Bool, _ value: (Database) throws -> T) throws -> T {
        let limit = queryTimeLimit
        func bounded(_ db: Database) throws -> T {
            guard let limit else { return try value(db) }
            return try QueryDeadline.run(db, limit: limit, value)
        }
        if isolated { return try reader.read(bounded) }
        return try ownReaders?.read(bounded) ?? reader.unsafeRead(bounded)
    }

    /// Writes in one transaction; when it returns, the change is durable, and live pages are told
    /// at once instead of at the next poll.
    public func write<T: Sendable>(_ updates: (Database) throws -> T) throws -> T {
        guard let writer else { throw OpenError(description: "the database '\(path)' is open read-only") }
        let result = try metrics.map { try $0.measure($0.writes) { try writer.write(updates) } } ?? writer.write(updates)
        watcher.checkNow()
        return result
    }

    /// Calls `observer` after every change to the database, from any writer, at most about once
    /// per poll interval, until the function it returns is called.
    @discardableResult
    public func onChange(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        watcher.addObserver(observer)
    }

    /// Starts watching for changes made by other connections and processes.
    public func startWatching(every interval: Duration = .milliseconds(100)) {
        watcher.start(interval: interval)
    }

    /// Stops watching.
    public func stopWatching() {
        watcher.stop()
    }
}
