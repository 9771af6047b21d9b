import Logging
import PostgresNIO
import TablePagesDatabase
import TableStorePostgres

extension PostgresTablePages {
    /// The `application_name` of the connection for visitors' SQL, to find it in `pg_stat_activity`.
    public static let sqlApplicationName = "tablepages sql"

    /// A runner of visitors' read-only SQL on this database (``/TablePagesDatabase/QueryPages``'s,
    /// the canned queries' and their live pages'), one query at a time under `limits`, on a pool
    /// of its own (never the tables'), logged in as `url`'s role (a role that can only read), or
    /// without `url` as the tables' role. That role is inspected first: when it is not one that
    /// can only read (``PostgresReaderRole``), the runner refuses every query with a 403 that says
    /// why, and `refusal` says it too, for the log. It blocks its thread while it connects: call it
    /// from a thread that may block.
    /// - Throws: ``PostgresStartupError`` when the database cannot be reached as `url`'s role.
    ///
    ///     let sql = try served.queryRunner(url: reader, limits: limits)
    ///     if let refusal = sql.refusal { logger.warning("\(refusal)") }
    public func queryRunner(
        url readerURL: PostgresURL? = nil, limits: QueryLimits, logger: Logger = Logger(label: "TablePages")
    ) throws -> (runner: any QueryRunner, refusal: PostgresReaderRole?) {
        let target = readerURL ?? url
        var configuration = try target.clientConfiguration(applicationName: Self.sqlApplicationName, parameters: [("default_transaction_read_only", "on")])
        // One at a time (the runner's turn), and one more while a connection that could not be reset closes.
        configuration.options.maximumConnections = 2
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        tasks.withLock { $0.append(client.startRunning()) }
        let role: PostgresReaderRole
        do {
            let lease = try PostgresLease(client: client, timeout: .seconds(10))
            defer { lease.release() }
            let (connection, namespace) = (lease.connection, namespace)
            role = try connection.blockingAnswer(within: .seconds(30), logger: logger) {
                try await PostgresReaderRole.inspect(on: connection, schema: namespace, logger: logger)
            }
        } catch {
            throw PostgresStartupError(step: "connecting to \(target) for visitors' SQL and reading its role", error: error)
        }
        guard role.reasons.isEmpty else { return (RefusedQueryRunner(limits: limits, refusal: role), role) }
        return (PostgresQueryRunner(client: client, limits: limits, namespace: namespace, logger: logger), nil)
    }

    /// Calls `observer` after each change of the served tables this instance sees: with `watch`,
    /// by `LISTEN`, with the table a trigger named (by name, as the ``queryRunner(url:limits:logger:)``'s
    /// results name the tables of ``namespace``), and ``/TablePagesDatabase/ChangedTables/unknown``
    /// when listening (re)starts; else by polling, where any write in the cluster is an unknown
    /// change. What a live query (``/TablePagesDatabase/LiveQueryPages``) re-runs on.
    ///
    ///     LiveQueryPages.register(queries, runner: runner, onChange: tables.onChange, in: &pages)
    public func onChange(_ observer: @escaping @Sendable (ChangedTables) -> Void) {
        changeObservers.withLock { $0.append(observer) }
    }
}
