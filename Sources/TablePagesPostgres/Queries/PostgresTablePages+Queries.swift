import Logging
import PostgresNIO
import TablePagesDatabase
import TableStorePostgres

extension PostgresTablePages {
    /// The `application_name` of the connection for visitors' SQL, to find it in `pg_stat_activity`.
    public static let sqlApplicationName = "tablepages sql"

    /// A runner of visitors' read-only SQL on this database (``/TablePagesDatabase/QueryPages``'s,
    /// the canned queries' and their live pages'), one query at a time under `limits`, on a pool
    /// of its own (never the tables'), logged in as the role of ``init(url:namespace:watch:writable:auditMaxRows:queryTimeLimit:maximumConnections:readerURL:logger:)``'s
    /// `readerURL` (a role that can only read), or as the tables' role. That role is inspected
    /// first: when it is not one that can only read (``PostgresReaderRole``), the runner refuses
    /// every query with a 403 that says why, and `refusal` says it too, for the log. Call it while
    /// ``run()`` runs; it blocks its thread while it connects: call it from a thread that may block.
    /// - Throws: ``PostgresStartupError`` when the database cannot be reached as that role.
    ///
    ///     let sql = try served.queryRunner(limits: limits)
    ///     if let refusal = sql.refusal { logger.warning("\(refusal)") }
    public func queryRunner(limits: QueryLimits, logger: Logger = Logger(label: "TablePages")) throws -> (runner: any QueryRunner, refusal: PostgresReaderRole?) {
        let role: PostgresReaderRole
        do {
            let lease = try PostgresLease(client: sqlClient, timeout: .seconds(10))
            defer { lease.release() }
            let (connection, namespace) = (lease.connection, namespace)
            role = try connection.blockingAnswer(within: .seconds(30), logger: logger) {
                try await PostgresReaderRole.inspect(on: connection, schema: namespace, logger: logger)
            }
        } catch {
            throw PostgresStartupError(step: "connecting to \(readerURL) for visitors' SQL and reading its role", error: error)
        }
        guard role.reasons.isEmpty else { return (RefusedQueryRunner(limits: limits, refusal: role), role) }
        return (PostgresQueryRunner(client: sqlClient, limits: limits, namespace: namespace, logger: logger), nil)
    }

    /// Calls `observer` after each change of the served tables this instance sees: with `watch`,
    /// by `LISTEN`, with the table a trigger named (by name, as the ``queryRunner(limits:logger:)``'s
    /// results name the tables of ``namespace``), and ``/TablePagesDatabase/ChangedTables/unknown``
    /// when listening (re)starts; else by polling, where any write in the cluster is an unknown
    /// change. What a live query (``/TablePagesDatabase/LiveQueryPages``) re-runs on.
    ///
    ///     LiveQueryPages.register(queries, runner: runner, onChange: tables.onChange, in: &pages)
    public func onChange(_ observer: @escaping @Sendable (ChangedTables) -> Void) {
        changeObservers.withLock { $0.append(observer) }
    }
}
