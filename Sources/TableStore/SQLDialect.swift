/// Which SQL an ``SQLStore`` speaks, for the few statements that differ (schema, mostly).
public enum SQLDialect: String, Sendable {
    /// SQLite, through GRDB (``Store``).
    case sqlite
    /// PostgreSQL (TableStorePostgres' `PostgresStore`).
    case postgresql
}
