import Logging
import PostgresNIO
import TablePagesDatabase
import TableStorePostgres

/// Which functions visitors' SQL may call on PostgreSQL, judged by what PostgreSQL resolved (the
/// plan's calls, ``PostgresPlanCalls``), never by the query's text: every function of a called
/// name, and every function behind a called operator or cast, must be immutable or stable
/// (`pg_proc.provolatile`), not `SECURITY DEFINER`, and not one of ``refusedReaders``; the only
/// volatile ones allowed are ``allowedVolatile``. So advisory locks, `pg_notify`, `set_config`,
/// every function that acts on the server (`pg_terminate_backend`, `pg_reload_conf`,
/// `pg_create_physical_replication_slot`, `pg_stat_reset`, `pg_switch_wal`, `lo_*`, `dblink*`)
/// and every one that runs SQL given as text (`query_to_xml`, `ts_stat`) are refused, however
/// their name is written. A name is judged by all its overloads in every schema: a name one of
/// whose functions is refused is refused.
///
///     if let name = try await PostgresFunctionRule.refused(inPlan: json, calling: parsed, on: connection, logger: logger) { … }
enum PostgresFunctionRule {
    /// Volatile functions that only read or compute: they change nothing and leave nothing behind.
    static let allowedVolatile = [
        "random", "random_normal", "clock_timestamp", "timeofday", "gen_random_uuid", "pg_sleep", "pg_sleep_for", "pg_sleep_until",
    ]

    /// Stable functions refused all the same: they run queries of their own over whole tables,
    /// schemas or databases (`table_to_xml`), assign a transaction id, or validate function bodies;
    /// and volatile ones named for the message's sake.
    static let refusedReaders = [
        "table_to_xml", "table_to_xmlschema", "table_to_xml_and_xmlschema", "schema_to_xml", "schema_to_xmlschema",
        "schema_to_xml_and_xmlschema", "database_to_xml", "database_to_xmlschema", "database_to_xml_and_xmlschema",
        "query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema", "cursor_to_xml", "cursor_to_xmlschema",
        "txid_current", "pg_current_xact_id", "fmgr_c_validator", "fmgr_sql_validator", "fmgr_internal_validator",
    ]

    /// Given the called names ($1), operators ($2) and cast target types ($3): the name of each
    /// refused function among them, sorted.
    static let judgement = """
        WITH called AS (
            SELECT p.proname, p.provolatile, p.prosecdef, p.pronamespace
            FROM pg_catalog.pg_proc p WHERE p.proname = ANY($1::name[])
            UNION ALL
            SELECT p.proname, p.provolatile, p.prosecdef, p.pronamespace
            FROM pg_catalog.pg_operator o JOIN pg_catalog.pg_proc p ON p.oid = o.oprcode WHERE o.oprname = ANY($2::name[])
            UNION ALL
            SELECT p.proname, p.provolatile, p.prosecdef, p.pronamespace
            FROM pg_catalog.pg_type t JOIN pg_catalog.pg_cast c ON c.casttarget = t.oid
            JOIN pg_catalog.pg_proc p ON p.oid = c.castfunc WHERE t.typname = ANY($3::name[])
        )
        SELECT DISTINCT called.proname::text FROM called
        WHERE called.prosecdef
            OR called.proname = ANY($5::name[])
            OR called.proname::text LIKE '%advisory%'
            OR (called.provolatile = 'v' AND NOT (
                called.pronamespace = 'pg_catalog'::regnamespace AND called.proname = ANY($4::name[])
            ))
        ORDER BY 1
        """

    /// The first function a query would call that is refused, from its plan `json`
    /// (``PostgresPlanText``) and its calls as PostgreSQL parsed it (`parsed`:
    /// ``PostgresQueryDependencies``, which also sees what no plan prints), or nil. Planning runs
    /// none of the query's volatile calls.
    static func refused(inPlan json: String, calling parsed: PostgresPlanCalls = PostgresPlanCalls(), on connection: PostgresConnection, logger: Logger) async throws -> String? {
        guard let calls = PostgresPlanCalls.names(inPlan: json) else {
            throw PostgresPlanText.unreadable
        }
        var names = PostgresBindings(capacity: 5)
        names.append(calls.functions.union(parsed.functions).sorted())
        names.append(calls.operators.union(parsed.operators).sorted())
        names.append(calls.types.union(parsed.types).sorted())
        names.append(allowedVolatile)
        names.append(refusedReaders)
        let refused = try await connection.allRows(PostgresQuery(unsafeSQL: judgement, binds: names), logger: logger)
        return try refused.first.map { try $0.decode(String.self) }
    }

    /// The 400's message for the refused function `name`.
    static func message(refusing name: String) -> String {
        "The function \(name)() is refused: the SQL page runs only functions that read and change nothing "
            + "(PostgreSQL's immutable and stable ones, and random(), clock_timestamp(), gen_random_uuid(), timeofday() and pg_sleep()), "
            + "not those that take locks, notify, change settings or statistics, act on the server or its files, or run SQL given as text."
    }
}
