import Logging
import TablePagesDatabase

extension PostgresTablePages {
    /// A runner of visitors' read-only SQL on this database (``/TablePagesDatabase/QueryPages``'s),
    /// on the tables' pool, one query at a time under `limits`.
    ///
    ///     let queries = QueryPages(runner: served.queryRunner(limits: limits), databaseName: "shop", siteTitle: title, accessControl: site.access)
    public func queryRunner(limits: QueryLimits, logger: Logger = Logger(label: "TablePages")) -> any QueryRunner {
        PostgresQueryRunner(client: executor.client, limits: limits, namespace: namespace, logger: logger)
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
