import Logging
import MicroHTTP
import PostgresNIO
import TablePages
import TablePagesDatabase
import TableStorePostgres

/// Why the login role of the connection for visitors' SQL (the SQL page, its live pages and the
/// canned queries) is not safe for it: a superuser, a role with `REPLICATION`, `BYPASSRLS` or
/// `CREATEROLE`, a member of a role that reads or writes the server's files, runs programs,
/// signals other backends or reads every setting and statistic, one that may write a table, or
/// one that may read the audit trail while it lacks row-level security (made by another role than
/// the writer's, which could not enable it).
/// A transaction's `SET ROLE` would be no boundary (a superuser's session switches back with
/// `set_config('role', …)`): the login role itself must be a reader. Answered 403 by the SQL page
/// while it stands, and logged at startup with how to make a reader role.
///
///     let role = try await PostgresReaderRole.inspect(on: connection, schema: "public", logger: logger)
///     if !role.reasons.isEmpty { logger.warning("\(role)") }
public struct PostgresReaderRole: Error, Sendable, CustomStringConvertible, HTTPErrorConvertible {
    /// The login role.
    public let role: String
    /// The served schema, which the role to make should read, as SQL names it (`quote_ident`).
    public let schema: String
    /// What it may do that a reader may not, e.g. "is a superuser".
    public let reasons: [String]

    /// The SQL that makes a reader role for the tables of the schema named `schema` (as SQL names
    /// it, quoted when it must be: `quote_ident`): two lines, the role and its grants.
    public static func creation(schema: String) -> [String] {
        [
            "CREATE ROLE tablepages_reader LOGIN PASSWORD 'choose-one';",
            "GRANT USAGE ON SCHEMA \(schema) TO tablepages_reader; GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO tablepages_reader;",
        ]
    }

    /// For the log: what is wrong and how to fix it.
    public var description: String {
        "the PostgreSQL role \(role) \(reasons.joined(separator: ", ")), so visitors' SQL (the SQL page, its live pages and canned queries) "
            + "is refused with 403; give a role that can only read with --sql-url postgresql://tablepages_reader@HOST/DATABASE, made with: "
            + Self.creation(schema: schema).joined(separator: " ")
    }

    /// 403, saying what the role may do and that the operator can give a reader role.
    public var httpError: HTTPError {
        HTTPError(
            403,
            "This server does not run visitors' SQL: the PostgreSQL role it would run as (\(role)) \(reasons.joined(separator: ", ")). "
                + "Its operator can give a role that can only read (serve --sql-url; see docs/operations.md, A PostgreSQL database)."
        )
    }

    /// Roles whose members may act on the server: read or write its files, run programs, signal
    /// backends, read every setting and statistic, write every table, checkpoint. Those missing
    /// from an older PostgreSQL are skipped.
    static let privilegedRoles = [
        "pg_read_server_files", "pg_write_server_files", "pg_execute_server_program", "pg_signal_backend", "pg_monitor",
        "pg_read_all_settings", "pg_read_all_stats", "pg_write_all_data", "pg_checkpoint",
    ]

    /// Given the roles of ``privilegedRoles`` ($1), the served schema ($2) and the audit trail's
    /// table ($3): the login role, its attributes, the privileged roles it is a member of, up to
    /// three tables (outside PostgreSQL's own schemas) it may write, whole or some columns, the
    /// schema as SQL names it, and whether it may read the trail's rows (`SELECT`, by a grant or
    /// `pg_read_all_data`, on a trail without row-level security).
    static let inspection = """
        SELECT r.rolname::text, r.rolsuper, r.rolreplication, r.rolbypassrls, r.rolcreaterole,
            ARRAY(
                SELECT g.rolname::text FROM pg_catalog.pg_roles g
                WHERE g.rolname = ANY($1::name[]) AND pg_catalog.pg_has_role(r.oid, g.oid, 'USAGE') ORDER BY 1
            ),
            ARRAY(
                SELECT pg_catalog.format('%I.%I', n.nspname, c.relname)
                FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                    AND (pg_catalog.has_table_privilege(r.oid, c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')
                        OR pg_catalog.has_any_column_privilege(r.oid, c.oid, 'INSERT, UPDATE'))
                ORDER BY 1 LIMIT 3
            ),
            pg_catalog.quote_ident($2),
            COALESCE((
                SELECT NOT c.relrowsecurity AND pg_catalog.has_table_privilege(r.oid, c.oid, 'SELECT')
                FROM pg_catalog.pg_class c WHERE c.oid = pg_catalog.to_regclass($3)
            ), false)
        FROM pg_catalog.pg_roles r WHERE r.rolname = current_user
        """

    /// The login role of `connection` and what it may do that a reader may not (none: it is safe).
    static func inspect(on connection: PostgresConnection, schema: String, logger: Logger) async throws -> PostgresReaderRole {
        var binds = PostgresBindings(capacity: 3)
        binds.append(privilegedRoles)
        binds.append(schema)
        binds.append(DatabaseAuditTrail.postgresTable)
        let rows = try await connection.allRows(PostgresQuery(unsafeSQL: inspection, binds: binds), logger: logger)
        guard let row = rows.first else { return PostgresReaderRole(role: "?", schema: SQLIdentifier.quoted(schema), reasons: ["could not be found in pg_roles"]) }
        let (role, superuser, replication, bypassesRLS, createsRoles, members, writable, quotedSchema, readsTrail) =
            try row.decode((String, Bool, Bool, Bool, Bool, [String], [String], String, Bool).self)
        var reasons: [String] = []
        if superuser { reasons.append("is a superuser") }
        if replication { reasons.append("has REPLICATION") }
        if bypassesRLS { reasons.append("has BYPASSRLS") }
        if createsRoles { reasons.append("has CREATEROLE") }
        if !members.isEmpty { reasons.append("is a member of \(members.joined(separator: ", "))") }
        if !writable.isEmpty { reasons.append("may write tables (\(writable.joined(separator: ", ")))") }
        if readsTrail {
            reasons.append("may read the audit trail \(DatabaseAuditTrail.postgresTable), which has no row-level security (its owner can add it: \(DatabaseAuditTrail.rowSecurityStatements().joined(separator: " ")))")
        }
        return PostgresReaderRole(role: role, schema: quotedSchema, reasons: reasons)
    }
}
