import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
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
/// cooperative pool or an event loop. The pool works while ``run()`` runs: put the store in the
/// `ServiceGroup` that runs the site, before the site (or run it in a task of its own).
public final class PostgresStore: SQLStore, Service {
    /// The database, without its password.
    public let url: PostgresURL
    /// The most connections the pool opens for reads and writes (the listening connection is one more).
    public let maximumConnections: Int
    /// How long a read or write waits for a free connection before it fails.
    public let connectionWait: Duration
    /// How long one statement waits for PostgreSQL's answer before its connection is given up as
    /// dead (closed, and replaced by the pool): a statement sent on a connection whose server was
    /// killed or cut off may otherwise never be answered. Longer than any read's time limit.
    public let answerWait: Duration
    private let client: PostgresClient
    private let listener: PostgresChangeListener
    /// How long a version of the clock may go without its notification arriving before the
    /// listening connection is taken for stuck: see ``startWatching()``.
    public let listenerLagLimit: Duration
    private let watchingListener = Atomic<Bool>(false)
    // Nil until the first write learnt whether the write ledger is (or could be) installed.
    private let ledgerInstalled = Mutex<Bool?>(nil)
    private let observers: ChangeObservers
    private let logger: Logger
    // PostgreSQL's `statement_timeout` counts milliseconds.
    private let queryTimeLimitSetting = QueryTimeLimitSetting(.seconds(1), resolution: .milliseconds(1))

    /// The most connections by default: one per database lane with room for `/readyz`'s probe.
    public static let defaultMaximumConnections = 8
    /// Five seconds: far above a notification's usual delay (milliseconds), short enough that a
    /// stuck listening connection leaves pages stale for seconds, not for good.
    public static let defaultListenerLagLimit = Duration.seconds(5)

    /// A store on `url` with a pool of at most `maximumConnections`; connects lazily, once
    /// ``run()`` runs the pool.
    public init(url: PostgresURL, maximumConnections: Int = defaultMaximumConnections, connectionWait: Duration = .seconds(10), answerWait: Duration = .seconds(10), listenerLagLimit: Duration = defaultListenerLagLimit, logger: Logger = Logger(label: "TableStorePostgres")) throws {
        self.url = url
        self.maximumConnections = maximumConnections
        self.connectionWait = connectionWait
        self.answerWait = answerWait
        self.listenerLagLimit = listenerLagLimit
        self.logger = logger
        var configuration = try url.clientConfiguration()
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
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
        return try inTransaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", setup: { session in
            if limit > 0 { try session.execute("SET LOCAL statement_timeout = \(limit)") }
            return nil
        }, body)
    }

    /// Reads in one snapshot, as ``snapshot(_:)``, and the version clock in the same transaction (nil
    /// before the clock's migration ran).
    public func versionedSnapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> (value: T, version: Int?) {
        try snapshot { db in
            let value = try body(db)
            guard try db.row(PostgresChangeClock.clockExistsQuery)?.bool(0) == true else { return (value, nil) }
            return (value, try db.row(PostgresChangeClock.currentVersionQuery).map { Int(try $0.int64(0)) })
        }
    }

    /// Writes in one transaction, blocking this thread; when it returns the commit is durable
    /// (as PostgreSQL's `synchronous_commit` makes it: on, by default), and this instance's pages
    /// are told at once rather than when the notification comes back.
    ///
    /// When it throws, nothing was committed — except for a ``PostgresError`` whose
    /// ``PostgresError/isOutcomeUnknown`` is true. If the connection fails after `COMMIT` was sent,
    /// the store asks the database, on other connections, what became of the transaction for up
    /// to ``connectionWait``: a commit that happened is then reported as one. Each write records a
    /// random write id in a ring of the last 100,000 (`tablepages_writes`, about 8 MB, installed by
    /// the first write) in the same round trip as it reads its transaction id; finding that id
    /// proves the commit, and missing it once the transaction is over proves the opposite — even
    /// after a crash, when a restarted server may give the transaction's id to another.
    public func transaction<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        let ledger = try writeLedger()
        let result = try inTransaction(begin: "BEGIN", setup: { session in try Self.takeTicket(in: session, ledger: ledger) }, body)
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
        let version = try PostgresSession(connection: lease.connection, answerWait: answerWait, logger: logger).row(PostgresChangeClock.currentVersionQuery)?.int64(0)
        return version.map(Int.init)
    }

    /// Calls `observer` after every change any writer commits to a watched table, and whenever
    /// the listening connection (re)connects (when changes may have been missed), until the
    /// function it returns is called.
    @discardableResult
    public func onChange(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        observers.add(observer)
    }

    /// Opens the listening connection (and keeps it open, reconnecting with backoff), and checks
    /// that it keeps delivering: a thread of its own reads the version clock a few times per
    /// ``listenerLagLimit``, and when a version the clock reached is not notified within that
    /// limit (the connection is open but its server process stopped, or the network drops it
    /// silently), it logs so, closes the connection so that listening starts again, and tells
    /// every observer to re-read. `/readyz` fails meanwhile (``isListening`` is false).
    public func startWatching() {
        listener.start()
        guard !watchingListener.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in watchListener() }
        thread.name = "tablepages.listener-lag"
        thread.start()
    }

    /// Whether the listening connection is up, so that changes from elsewhere are seen.
    public var isListening: Bool { listener.isListening }

    /// The highest clock version a notification carried so far.
    public var lastNotifiedVersion: Int64? { listener.lastNotifiedVersion }

    /// Runs the pool (postgres-nio's `PostgresClient.run()`) until the `ServiceGroup` shuts down
    /// gracefully, or until cancelled; reads and writes wait for it, and fail once it has ended.
    public func run() async throws {
        await client.run()
    }

    /// Stops listening (the pool closes when ``run()`` ends).
    public func stop() {
        watchingListener.store(false, ordering: .releasing)
        listener.stop()
    }

    private func watchListener() {
        var lag = ListenerLag(limit: listenerLagLimit)
        var downSince: ContinuousClock.Instant?
        let interval = min(max(listenerLagLimit / 4, .milliseconds(50)), .seconds(1))
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        while watchingListener.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: seconds)
            let now = ContinuousClock.now
            guard listener.isListening else {
                // A LISTEN that never takes effect is as stuck as one that stopped delivering.
                let since = downSince ?? now
                downSince = since
                if now - since > listenerLagLimit {
                    listener.reconnect()
                    downSince = now
                }
                continue
            }
            downSince = nil
            guard let clock = try? dataVersion() else { continue }
            if let version = lag.stalledVersion(clock: Int64(clock), notified: listener.lastNotifiedVersion, resumption: listener.resumption, now: now) {
                logger.warning("the PostgreSQL listening connection has not delivered version \(version) of the clock within \(listenerLagLimit); reconnecting it, and every page re-reads its data")
                listener.reconnect()
                observers.notify()
            }
        }
    }

    /// Whether writes record their ids in ``PostgresWriteLedger``: installs it on the first write
    /// (under a lock, so that instances starting together do it once). Where it cannot be installed
    /// (the role may not create tables) writes go on without it, and an unanswered COMMIT is settled
    /// by `txid_status` alone; a connection failure is thrown, and the next write tries again.
    private func writeLedger() throws -> Bool {
        if let known = ledgerInstalled.withLock({ $0 }) { return known }
        let installed: Bool
        do {
            try inTransaction(begin: "BEGIN", setup: { _ in nil }) { db in
                try db.execute("SELECT pg_advisory_xact_lock(?)", [.integer(PostgresWriteLedger.installLock)])
                guard try db.row(PostgresWriteLedger.existsQuery)?.bool(0) != true else { return }
                for statement in PostgresWriteLedger.installStatements { try db.execute(statement) }
            }
            installed = true
        } catch let error as PostgresError where !error.isConnectionFailure && !error.isTransient {
            logger.warning("the write ledger (tablepages_writes) cannot be installed (\(error)); a write whose COMMIT goes unanswered is settled by txid_status alone, which a restarted server can mislead")
            installed = false
        }
        ledgerInstalled.withLock { $0 = installed }
        return installed
    }

    /// Notes the write transaction on `session` for ``settleCommit(of:after:)``: records a new write
    /// id in the ledger if it is installed, and reads the transaction's id, in one statement.
    static func takeTicket(in session: PostgresSession, ledger: Bool) throws -> PostgresWriteTicket? {
        guard ledger else {
            return try session.row("SELECT txid_current()")?.optionalInt64(0).map { PostgresWriteTicket(transactionID: $0, writeID: nil, sequence: nil) }
        }
        let writeID = UUID().uuidString.lowercased()
        guard let row = try session.row(PostgresWriteLedger.recordQuery, [.text(writeID)]) else { return nil }
        return PostgresWriteTicket(transactionID: try row.int64(0), writeID: writeID, sequence: try row.int64(1))
    }

    private func notifyObservers() {
        observers.notify()
    }

    private func inTransaction<T>(begin: String, setup: (PostgresSession) throws -> PostgresWriteTicket?, _ body: (any SQLSession) throws -> T) throws -> T {
        let lease = try PostgresLease(client: client, timeout: connectionWait)
        defer { lease.release() }
        let session = PostgresSession(connection: lease.connection, answerWait: answerWait, logger: logger)
        let ticket: PostgresWriteTicket?
        do {
            try session.execute(begin)
            // A write's setup takes its ticket, to ask after it if COMMIT goes unanswered.
            ticket = try setup(session)
        } catch {
            abandon(session, after: error)
            throw error
        }
        let result: T
        do {
            result = try body(session)
        } catch {
            abandon(session, after: error)
            throw error
        }
        do {
            try session.execute("COMMIT")
        } catch let error as PostgresError where error.isConnectionFailure {
            session.closeConnection()
            guard let ticket else { throw error }
            try settleCommit(of: ticket, after: error)
        }
        return result
    }

    /// Ends a transaction that failed before COMMIT: nothing of it is committed. A failed
    /// connection is closed (the server rolls back when it notices); any other is rolled back,
    /// and closed if even that goes unanswered.
    private func abandon(_ session: PostgresSession, after error: any Error) {
        if let error = error as? PostgresError, error.isConnectionFailure {
            session.closeConnection()
            return
        }
        do {
            try session.execute("ROLLBACK")
        } catch {
            session.closeConnection()
        }
    }

    /// Learns whether the write of `ticket`, whose COMMIT went unanswered (`failure`), committed:
    /// returns if it did, rethrows `failure` (nothing was committed) if it did not, and throws an
    /// outcome-unknown error when that cannot be learnt within ``connectionWait``. Asks on other
    /// connections, again while the transaction has not ended (the server has not yet noticed
    /// the connection's loss).
    func settleCommit(of ticket: PostgresWriteTicket, after failure: PostgresError) throws {
        let deadline = ContinuousClock.now + connectionWait
        var lastProblem: any Error = failure
        let name = "transaction \(ticket.transactionID)" + (ticket.writeID.map { " (write id \($0))" } ?? "")
        while ContinuousClock.now < deadline {
            let outcome: CommitOutcome?
            do {
                let lease = try PostgresLease(client: client, timeout: max(.milliseconds(1), deadline - ContinuousClock.now))
                defer { lease.release() }
                outcome = try Self.lookUp(ticket, in: PostgresSession(connection: lease.connection, answerWait: answerWait, logger: logger))
            } catch {
                // Unreachable, or refused: whatever happened, it is not an answer.
                lastProblem = error
                outcome = nil
            }
            switch outcome {
            case .committed(let reason)?:
                logger.warning("a write's COMMIT went unanswered (\(failure)); \(name) was committed after all: \(reason)")
                return
            case .notCommitted(let reason)?:
                logger.warning("a write's COMMIT went unanswered (\(failure)); \(name) was not committed: \(reason)")
                throw failure
            case .unknown(let reason)?:
                lastProblem = PostgresError(description: reason)
                logger.error("a write's COMMIT went unanswered (\(failure)) and whether \(name) committed cannot be learnt: \(reason)")
                throw PostgresError(description: "whether the change was saved is unknown: the connection failed after COMMIT (\(failure)), and \(reason)", isOutcomeUnknown: true)
            case .inProgress?:
                lastProblem = PostgresError(description: "\(name) is still in progress")
            case nil:
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        logger.error("a write's COMMIT went unanswered (\(failure)) and whether \(name) committed could not be learnt: \(lastProblem)")
        throw PostgresError(description: "whether the change was saved is unknown: the connection failed after COMMIT (\(failure)), and PostgreSQL could not be asked within \(connectionWait)", isOutcomeUnknown: true)
    }

    /// Asks the database, in one statement on `session`, what became of the write of `ticket`: by
    /// its write id when it has one (see ``PostgresWriteLedger``), else by `txid_status`, which
    /// a restarted server's reuse of the transaction id can mislead.
    static func lookUp(_ ticket: PostgresWriteTicket, in session: any SQLSession) throws -> CommitOutcome {
        if let sequence = ticket.sequence, ticket.writeID != nil {
            let id = SQLValue.integer(ticket.transactionID)
            guard let row = try session.row(PostgresWriteLedger.lookupQuery, [id, id, .integer(PostgresWriteLedger.slot(of: sequence))]) else {
                return .unknown("the lookup of its write id answered nothing")
            }
            return PostgresWriteLedger.outcome(
                of: ticket, slotSequence: try row.optionalInt64(0), slotID: try row.optionalString(1),
                isOver: try row.bool(2), isPastServer: try row.bool(3)
            )
        }
        let status: String?
        do {
            status = try session.row("SELECT txid_status(?)", [.integer(ticket.transactionID)])?.optionalString(0)
        } catch let error as PostgresError where error.sqlState == "22023" {
            // "transaction ID … is in the future": the server restarted from a log without it.
            return .notCommitted("the server restarted without it (\(error))")
        }
        switch status {
        case "committed": return .committed("txid_status says so")
        case "aborted": return .notCommitted("txid_status says it aborted")
        case "in progress": return .inProgress
        default: return .unknown("txid_status says \(status ?? "nothing")")
        }
    }
}
