import Logging
import TablePagesDatabase

extension PostgresTablePages {
    /// A runner of visitors' read-only SQL on this database (``/TablePagesDatabase/QueryPages``'s),
    /// on the tables' pool, one query at a time under `limits`.
    ///
    ///     let queries = QueryPages(runner: served.queryRunner(limits: limits), databaseName: "shop", siteTitle: title, accessControl: site.access)
    public func queryRunner(limits: QueryLimits, logger: Logger = Logger(label: "TablePages")) -> any QueryRunner {
        PostgresQueryRunner(client: executor.client, limits: limits, logger: logger)
    }

    /// Calls `observer` after each change of the served tables this instance sees (by `LISTEN`
    /// with `watch`, else by polling, where any write in the cluster counts): what a live query
    /// (``/TablePagesDatabase/LiveQueryPages``) re-runs on.
    public func onChange(_ observer: @escaping @Sendable () -> Void) {
        changeObservers.withLock { $0.append(observer) }
    }
}
