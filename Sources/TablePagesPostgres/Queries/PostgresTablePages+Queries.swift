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
}
