import Dispatch
import Foundation
import Logging
import PostgresNIO
import TablePagesDatabase
import TableStore
import TableStorePostgres

/// Runs visitors' SQL on PostgreSQL for the SQL page: each query in a `READ ONLY` transaction
/// that is always rolled back, then the session reset (`DISCARD ALL`: a session-level advisory
/// lock or setting is undone), with `statement_timeout` at the query time limit, on a connection
/// of a pool of its own (as a role that can only read: ``PostgresReaderRole``), one query at a
/// time, limited to the row limit and one (``limited(_:rows:)``). Before it is sent, the SQL must
/// begin with `SELECT`, `WITH`, `VALUES`, `TABLE` or `EXPLAIN` (without `ANALYZE`:
/// ``PostgresExplainStatement``); before it runs, every function its plan calls must be one that
/// only reads (``PostgresFunctionRule``): each a 400 that says why. Named parameters (`:name`) are
/// bound as text of no declared type, which PostgreSQL reads as the type the query needs, as a
/// quoted literal would be.
///
/// postgres-nio's collected answer names the columns only with its rows: a query without rows
/// is asked for its columns once more (``describing(_:)``), in the same transaction.
///
///     let runner = tables.queryRunner(limits: limits)
final class PostgresQueryRunner: QueryRunner {
    /// The statements' first words that only read.
    static let readingStatements: Set<String> = ["select", "with", "values", "table", "explain"]

    let limits: QueryLimits
    private let client: PostgresClient
    /// The served schema: its tables are named by name in ``/TablePagesDatabase/QueryResult/tables``.
    private let namespace: String
    private let logger: Logger
    // One query at a time: visitors' SQL never holds more than one connection.
    private let turn = DispatchSemaphore(value: 1)

    init(client: PostgresClient, limits: QueryLimits, namespace: String, logger: Logger) {
        self.client = client
        self.limits = limits
        self.namespace = namespace
        self.logger = logger
    }

    func run(_ sql: String, parameters: [String: String]) throws -> QueryResult {
        let (limits, logger, namespace) = (limits, logger, namespace)
        return try answer(sql, values: parameters) { connection, numbered, binds, plan in
            let tables = try await Self.tables(read: numbered, plan: plan, sql: sql, namespace: namespace, on: connection, logger: logger)
            let started = DispatchTime.now()
            // Read as the rows arrive, each refused by PostgreSQL past the byte limit.
            let sized = PostgresQuery(unsafeSQL: PostgresBoundedRows.sized(numbered, bytes: limits.bytes) ?? numbered, binds: binds)
            var result = try await PostgresBoundedRows.read(sized, limits: limits, rowLinkBytes: QueryResultLimiter.linkBytes(sql: sql, parameters: parameters), on: connection, logger: logger)
            result.tables = tables
            if result.rows.isEmpty, let describing = Self.describing(numbered) {
                let row = try await connection.allRows(PostgresQuery(unsafeSQL: describing, binds: binds), logger: logger).first
                result.columns = row.map { $0.map(\.columnName) } ?? []
            }
            result.milliseconds = QueryResult.milliseconds(since: started)
            return result
        }
    }

    /// Runs `sql` as ``run(_:parameters:)`` would, in the same read-only transaction, but asked
    /// for no rows (``describing(_:)``: `LIMIT 0`, which PostgreSQL plans and starts without
    /// reading) and with every parameter NULL, which suits any type the query gives it: so the
    /// syntax, the names, the types and the read-only rule (`FOR UPDATE`) are all checked.
    func check(_ sql: String) throws {
        let logger = logger
        _ = try answer(sql, values: nil) { connection, numbered, binds, _ in
            try await connection.allRows(PostgresQuery(unsafeSQL: Self.describing(numbered) ?? numbered, binds: binds), logger: logger).count
        }
    }

    /// What ``run(_:parameters:)`` and ``check(_:)`` share: `sql` refused before it is sent
    /// (``refusal(of:)``), or limited (``limited(_:rows:)``), its `:name`s numbered and bound to
    /// the text `values` has for each (empty text when it has none; NULL when `values` is nil),
    /// then `body` with the numbered SQL, its bindings and its plan (``PostgresPlanText``; nil for
    /// an `EXPLAIN`), when this runner's turn comes, inside the read-only transaction, once the
    /// plan's functions passed ``PostgresFunctionRule``, waiting at most ``answerWait`` for it.
    private func answer<T: Sendable>(
        _ sql: String, values: [String: String]?,
        _ body: @escaping @Sendable (PostgresConnection, _ numbered: String, PostgresBindings, _ plan: String?) async throws -> T
    ) throws -> T {
        if let refusal = Self.refusal(of: sql) { throw QueryRefusal(refusal) }
        let (numbered, names) = SQLParameterNames.numbered(Self.limited(sql, rows: limits.rows))
        var binds = PostgresBindings(capacity: names.count)
        for name in names {
            if let values { binds.append(UntypedText(text: values[name] ?? "")) } else { binds.appendNull() }
        }
        turn.wait()
        defer { turn.signal() }
        // An EXPLAIN's statement is judged by its own plan.
        let judged = if case .explains(let inner) = PostgresExplainStatement(sql: numbered) { inner } else { numbered }
        return try inReadOnlyTransaction { [answerWait, logger, limits] connection in
            // Before the read-only transaction: a temporary view cannot be made in one.
            try connection.blockingAnswer(within: answerWait, logger: logger) {
                try await PostgresQueryDependencies.calls(of: judged, timeLimit: limits.time, on: connection, logger: logger)
            }
        } _: { [answerWait, logger, binds, limits] connection, parsed in
            try connection.blockingAnswer(within: answerWait, logger: logger) {
                let plan = try await PostgresPlanText.explain(judged, binds: binds, byteLimit: limits.bytes, on: connection, logger: logger)
                if let name = try await PostgresFunctionRule.refused(inPlan: plan, calling: parsed, on: connection, logger: logger) {
                    throw QueryRefusal(PostgresFunctionRule.message(refusing: name))
                }
                if let own = PostgresPlanRelations.relations(inPlan: plan)?.first(where: { $0.schema == DatabaseAuditTrail.postgresSchema }) {
                    throw QueryRefusal(Self.ownTableRefusal(own.name))
                }
                // The plan of the query itself; an EXPLAIN's is of the statement it explains.
                return try await body(connection, numbered, binds, judged == numbered ? plan : nil)
            }
        }
    }

    /// The tables the limited query `numbered` (of the visitor's `sql`), whose plan is `plan`, reads, as
    /// ``PostgresPlanRelations/tableName(schema:name:namespace:)`` names them: those its plan
    /// scans and, for a partition, the tables it is a partition of (a write through the
    /// partitioned table notifies that one). Nil when that cannot be told: `EXPLAIN` (which has
    /// no plan of its own to explain, so `plan` is nil), or a function of a schema other than PostgreSQL's own
    /// named in `sql`, which may read tables that no plan shows.
    static func tables(
        read numbered: String, plan: String?, sql: String, namespace: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> Set<String>? {
        guard firstWord(of: numbered) != "explain", let plan, let relations = PostgresPlanRelations.relations(inPlan: plan) else { return nil }
        // As written (a quoted name keeps its case) and lowercased (as PostgreSQL folds one unquoted).
        let written = sql.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
        let words = Set(written + written.map { $0.lowercased() })
        var catalog = PostgresBindings(capacity: 3)
        catalog.append(relations.map(\.schema))
        catalog.append(relations.map(\.name))
        catalog.append(words.sorted())
        let found = try await connection.allRows(PostgresQuery(unsafeSQL: ancestorsAndFunctions, binds: catalog), logger: logger)
        var tables = Set(relations.map { PostgresPlanRelations.tableName(schema: $0.schema, name: $0.name, namespace: namespace) })
        for row in found {
            let (schema, name) = try row.decode((String?, String?).self)
            guard let schema, let name else { return nil }
            tables.insert(PostgresPlanRelations.tableName(schema: schema, name: name, namespace: namespace))
        }
        return tables
    }

    /// Given the schemas ($1) and names ($2) of the relations a plan scans and the words of the
    /// query ($3): a row (schema, name) per table one of them is a partition of, and a row of
    /// NULLs when a word is the name of a function outside `pg_catalog` and `information_schema`.
    static let ancestorsAndFunctions = """
        SELECT an.nspname::text, a.relname::text
        FROM unnest($1::text[], $2::text[]) AS scanned(schema_name, relation_name)
        JOIN pg_catalog.pg_namespace sn ON sn.nspname = scanned.schema_name
        JOIN pg_catalog.pg_class s ON s.relnamespace = sn.oid AND s.relname = scanned.relation_name
        CROSS JOIN LATERAL pg_catalog.pg_partition_ancestors(s.oid) AS ancestor(relid)
        JOIN pg_catalog.pg_class a ON a.oid = ancestor.relid AND a.oid <> s.oid
        JOIN pg_catalog.pg_namespace an ON an.oid = a.relnamespace
        UNION ALL
        SELECT NULL, NULL WHERE EXISTS (
            SELECT 1 FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
            WHERE pn.nspname NOT IN ('pg_catalog', 'information_schema') AND p.proname = ANY($3::name[])
        )
        """

    /// How long one statement may wait for its answer before its connection is given up.
    private var answerWait: Duration { (limits.time ?? .seconds(30)) + .seconds(5) }

    /// Runs `prepare` on a leased connection, then `body` with what it made inside `BEGIN READ
    /// ONLY` … `ROLLBACK`, then `DISCARD ALL`: what a query left in the session (an advisory lock,
    /// a setting, a prepared statement, a temporary table or view) is gone before the connection is
    /// lent again; one that cannot be reset is closed.
    private func inReadOnlyTransaction<P: Sendable, T: Sendable>(
        _ prepare: (PostgresConnection) throws -> P, _ body: (PostgresConnection, P) throws -> T
    ) throws -> T {
        let lease: PostgresLease
        do {
            lease = try PostgresLease(client: client, timeout: .seconds(10))
        } catch let error as TableStorePostgres.PostgresError where error.isConnectionFailure {
            throw PostgresReadError.unreachable(error)
        }
        defer { lease.release() }
        let connection = lease.connection
        let execute = { [logger, answerWait] (sql: String) throws in
            _ = try connection.blockingAnswer(within: answerWait, logger: logger) {
                try await connection.allRows(PostgresQuery(unsafeSQL: sql), logger: logger).count
            }
        }
        do {
            let prepared = try prepare(connection)
            try execute("BEGIN TRANSACTION READ ONLY")
            if let limit = limits.time {
                try execute("SET LOCAL statement_timeout = \(StatementTimeout.milliseconds(limit))")
            }
            let value = try body(connection, prepared)
            try execute("ROLLBACK")
            try execute("DISCARD ALL")
            return value
        } catch {
            // A connection whose transaction could not be ended, or whose session not reset, is not lent again.
            do {
                try execute("ROLLBACK")
                try execute("DISCARD ALL")
            } catch {
                connection.closeInBackground(logger: logger)
            }
            throw Self.classify(error, limit: limits.time)
        }
    }

    /// `sql` as a query of at most `rows` + 1 rows (one more tells that it was truncated), so
    /// that a query of millions of rows is not read whole: inside `SELECT * FROM (…) LIMIT`, on
    /// lines of their own so that a trailing `--` comment ends before the `)`, without what
    /// follows its `;` (only comments and more `;`s: ``refusal(of:)`` refuses more). `EXPLAIN` (which cannot be a subquery, and answers a few lines) stays as it is.
    static func limited(_ sql: String, rows: Int) -> String {
        var body = Substring(SQLParameterNames.firstStatement(sql))
        while let last = body.last, last.isWhitespace { body.removeLast() }
        guard firstWord(of: String(body)) != "explain" else { return String(body) }
        return "SELECT * FROM (\n" + body + "\n) AS tablepages_query LIMIT \(rows + 1)"
    }

    /// A query of exactly one row, all NULL, under the columns of `limited` (a ``limited(_:rows:)``
    /// query), which is not run (`LIMIT 0`): how a result without rows learns its column names.
    /// Nil for `EXPLAIN`, which cannot be a subquery and always answers rows.
    static func describing(_ limited: String) -> String? {
        guard firstWord(of: limited) != "explain" else { return nil }
        return "SELECT tablepages_query.* FROM (VALUES (1)) AS tablepages_one LEFT JOIN (SELECT * FROM (\n" + limited
            + "\n) AS tablepages_limited LIMIT 0) AS tablepages_query ON true"
    }

    /// Why a query that reads `table` of the schema `tablepages` is refused: row security would
    /// show it no rows of the audit trail anyway (``/TablePagesDatabase/DatabaseAuditTrail``), and
    /// an empty answer would look like an empty trail.
    static func ownTableRefusal(_ table: String) -> String {
        "\(DatabaseAuditTrail.postgresSchema).\(table) is TablePages' own (the audit trail): visitors' SQL cannot read it; signed-in editors read it at /-/audit."
    }

    /// Why `sql` is refused before it is sent, or nil.
    static func refusal(of sql: String) -> String? {
        guard let first = firstWord(of: sql) else { return "Write a SELECT statement to run." }
        guard readingStatements.contains(first) else {
            return "Only SELECT statements are allowed (SELECT, WITH, VALUES, TABLE, EXPLAIN): this one begins with \(first.uppercased())."
        }
        if SQLParameterNames.hasSeveralStatements(sql) {
            return "Only one statement can run at a time: this SQL has multiple statements."
        }
        if case .refused(let why) = PostgresExplainStatement(sql: sql) { return why }
        return nil
    }

    /// The first word of `sql` after spaces, comments and opening parentheses, lowercased.
    static func firstWord(of sql: String) -> String? {
        var rest = Substring(sql)
        while true {
            rest = rest.drop(while: { $0.isWhitespace || $0 == "(" })
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*") {
                guard let end = rest.range(of: "*/") else { return nil }
                rest = rest[end.upperBound...]
            } else {
                break
            }
        }
        let word = rest.prefix(while: { $0.isLetter })
        return word.isEmpty ? nil : word.lowercased()
    }

    /// What a failed query means for the client: SQL that PostgreSQL refused (a syntax error, an
    /// unknown name, a write in the read-only transaction, a bad value) is a 400 with its message.
    static func classify(_ error: any Error, limit: Duration?) -> any Error {
        guard let error = error as? PSQLError else {
            if let unanswered = error as? PostgresUnanswered { return PostgresReadError(status: 503, reason: unanswered.description) }
            return error
        }
        guard let state = error.serverInfo?[.sqlState] else { return PostgresReadError.classify(error, queryTimeLimit: limit) }
        let message = error.serverInfo?[.message] ?? state
        // What the visitor's SQL caused is theirs, whatever its class (22 data, 25006 a write in the
        // read-only transaction, 42 syntax and access, 3F a schema that does not exist, XX000 an
        // internal error its arguments caused: `ts_token_type(1)`, 58P01 a file one names:
        // `pg_tablespace_location(1)`); the server's own troubles are not: 08 connection, 40
        // rollback, 53 resources, 57 operator intervention (57014: the time limit), 58 system,
        // F0 configuration, XX001/XX002 corruption.
        let servers = ["08", "40", "53", "57", "58", "F0", "XX001", "XX002"]
        if !servers.contains(where: state.hasPrefix) || ["58P01", "58P02"].contains(state) {
            // 25006 is a write in the read-only transaction; a write inside WITH is refused as a
            // data-modifying statement below the top level (the query is a subquery of the limit).
            let writes = state == "25006" || message.contains("data-modifying")
            return QueryRefusal(writes ? "Only SELECT statements are allowed: \(message)." : message)
        }
        return PostgresReadError.classify(error, queryTimeLimit: limit)
    }
}

/// Text bound with no declared type (OID 0): PostgreSQL infers the type from where the parameter
/// stands and reads the text as it, as it would a quoted literal.
private struct UntypedText: PostgresDynamicTypeEncodable {
    let text: String
    var psqlType: PostgresDataType { .null }
    var psqlFormat: PostgresFormat { .text }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeString(text)
    }
}
