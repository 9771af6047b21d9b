import ArgumentParser
import Glibc
import MicroHTTP
import TablePages
import TablePagesDatabase
import TablePagesExamples
import TableStorePostgres

extension ServeCommand {
    /// Refuses options that contradict each other or are out of range, saying which and why.
    func validate() throws {
        for name in allowedHosts where !HostAllowList.isValidPattern(name) {
            throw ValidationError("--allowed-host \(name) is not a host name: give a name (tables.example.com), an address (192.0.2.7, [::1]), *.domain or *, without a scheme.")
        }
        for origin in corsOrigins where !CORSPolicy.isValidOrigin(origin) {
            throw ValidationError("--cors \(origin) is not an origin: give scheme, host and port only, e.g. https://app.example or http://localhost:3000 (never *).")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1.") }
        guard connectionLimit >= 1 else { throw ValidationError("--connection-limit must be at least 1.") }
        guard perClientConnectionLimit >= 0, connectionTimeout >= 0 else {
            throw ValidationError("--per-client-connection-limit and --connection-timeout must not be negative.")
        }
        for range in trustedProxy where AddressRange(range) == nil {
            throw ValidationError("--trusted-proxy \(range) is not an IPv4 or IPv6 address or CIDR range (e.g. 10.0.0.0/8, fd00::/8, 127.0.0.1).")
        }
        guard requestTimeout >= 0, maxStreamsPerClient >= 0 else {
            throw ValidationError("--request-timeout and --max-streams-per-client must not be negative.")
        }
        guard connectionMemoryLimit >= ServerConfiguration.minimumConnectionMemoryLimit else {
            throw ValidationError("--connection-memory-limit must be at least \(ServerConfiguration.minimumConnectionMemoryLimit).")
        }
        guard maxBodySize >= 0 else { throw ValidationError("--max-body-size must not be negative.") }
        guard accessLogBufferSize >= 0 else { throw ValidationError("--access-log-buffer-size must not be negative.") }
        guard signInLimiterSize >= 0 else { throw ValidationError("--sign-in-limiter-size must not be negative.") }
        if let postgres {
            do { _ = try PostgresURL(postgres) } catch { throw ValidationError("--postgres: \(error)") }
            guard examplesDatabase == ExamplePages.defaultDatabasePath else {
                throw ValidationError("--postgres and --examples-database are alternatives: the examples' data lives in one of them.")
            }
        }
        guard postgresConnections >= 1 else { throw ValidationError("--postgres-connections must be at least 1.") }
        if database == nil, writable || examples || config != nil {
            throw ValidationError("--writable, --examples and --config go with --database.")
        }
        if !(database.map(PostgresURL.isPostgresURL) ?? false), watch || schema != "public" || sqlURL != nil {
            throw ValidationError("--watch, --schema and --sql-url go with a PostgreSQL --database (postgresql://…).")
        }
        if schema == DatabaseAuditTrail.postgresSchema {
            throw ValidationError("--schema \(schema) is TablePages' own (its audit trail, tablepages.audit_log, is there): serve another schema.")
        }
        if let sqlURL {
            do { _ = try PostgresURL(sqlURL, defaultTLSMode: .disable) } catch { throw ValidationError("--sql-url: \(error)") }
        }
        guard heartbeatInterval >= 1 else { throw ValidationError("--heartbeat-interval must be at least 1 second.") }
        guard renderCacheSize >= 0, liveVariantsSize >= 0, patchLogSize >= 0, idempotencyCacheSize >= 0 else {
            throw ValidationError("--render-cache-size, --live-variants-size, --patch-log-size and --idempotency-cache-size must not be negative.")
        }
        guard maxLiveVariants >= 1, maxVariantsPerPage >= 1, maxExports >= 1, maxPagesPerStream >= 1 else {
            throw ValidationError("--max-live-variants, --max-variants-per-page, --max-exports and --max-pages-per-stream must be at least 1.")
        }
        guard sqlRowLimit >= 1, sqlResultSize >= 1, sqlLiveQueries >= 1 else {
            throw ValidationError("--sql-row-limit, --sql-result-size and --sql-live-queries must be at least 1.")
        }
        guard queryTimeLimit >= 0 else { throw ValidationError("--query-time-limit must not be negative.") }
        guard auditMaxRows >= 1, maxPastedRows >= 1, maxForeignKeyChoices >= 1 else {
            throw ValidationError("--audit-max-rows, --max-pasted-rows and --max-foreign-key-choices must be at least 1.")
        }
        guard datasetteCsvMaxBytes >= 1, datasetteMaxInsertRows >= 1 else { throw ValidationError("--datasette-csv-max-bytes and --datasette-max-insert-rows must be at least 1.") }
        guard databaseConcurrency >= 1, databaseQueueLimit >= 1, liveQueryQueueLimit >= 1, positionalQueueLimit >= 1, stallTimeout >= 1,
              maxWatchedQueriesPerClient >= 1, unwatchedQueryLifetime >= 1 else {
            throw ValidationError("--database-concurrency, --database-queue-limit, --live-query-queue-limit, --positional-queue-limit, --max-watched-queries-per-client, --unwatched-query-lifetime and --stall-timeout must be at least 1.")
        }
        if let database, !PostgresURL.isPostgresURL(database), Self.isSameFile(database, credentials.credentials) {
            throw ValidationError(
                "--database \(database) is the credentials file (--credentials): it holds the session secret, the access tokens' hashes and the audit trail, "
                    + "which its table pages and the SQL page would show to visitors. Serve another file, or keep the credentials elsewhere with --credentials FILE."
            )
        }
    }

    /// Whether both paths name one existing file, however they are written (relative, through a
    /// link): the same device and inode.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var one = stat(), other = stat()
        guard stat(first, &one) == 0, stat(second, &other) == 0 else { return false }
        return one.st_dev == other.st_dev && one.st_ino == other.st_ino
    }
}
