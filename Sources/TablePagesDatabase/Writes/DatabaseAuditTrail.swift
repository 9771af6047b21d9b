import Foundation
import GRDB
import TableStore

/// The audit trail in a table of TablePages' own, `audit_log`, bounded in rows (the oldest
/// dropped): for SQLite in a file of TablePages' own (the credentials file, by `serve`), never the
/// user's database; for PostgreSQL in the schema `tablepages` of the database written, shared by
/// every instance and written in the same transaction as the rows it describes.
///
///     let audit = try DatabaseAuditTrail.sqlite(path: "tablepages-credentials.sqlite")
///     let writers = try DatabaseTablePages.registerWritable(store: store, in: &pages, audit: audit)
///
/// Each row keeps one changed row: when, who (actor id and name), how (browser or API), the
/// table, the row's key, what happened, and the values before and after, each value encoded
/// with its type (`DatabaseValueCoding`) so that an undo writes back exactly what was there.
public final class DatabaseAuditTrail: AuditTrail {
    /// How many rows are kept by default: 100,000 (about 10–50 MB for rows of a few columns).
    public static let defaultMaxRows = 100_000
    /// The schema of TablePages' own in a PostgreSQL database.
    public static let postgresSchema = "tablepages"
    /// The trail's table in a PostgreSQL database, as SQL names it: `"tablepages"."audit_log"`.
    public static let postgresTable = SQLIdentifier.quoted(postgresSchema) + "." + SQLIdentifier.quoted("audit_log")

    /// How many rows are kept; the oldest go first.
    public let maxRows: Int
    /// PostgreSQL: the trail's table has no row-level security, and this role, not its owner,
    /// could not give it any: a role with `pg_read_all_data` or `SELECT` on it reads every entry.
    /// Its owner should run ``rowSecurityStatements(of:)``.
    public let lacksRowSecurity: Bool
    private let reader: any SQLReader
    /// The trail's own database when it is not the written one (SQLite), where each write's
    /// entries are recorded in a transaction of their own.
    private let ownStore: (any SQLStore)?
    private let table: String

    private init(reader: any SQLReader, ownStore: (any SQLStore)?, table: String, maxRows: Int, lacksRowSecurity: Bool = false) {
        self.lacksRowSecurity = lacksRowSecurity
        self.reader = reader
        self.ownStore = ownStore
        self.table = table
        self.maxRows = max(1, maxRows)
    }

    /// A trail in the SQLite file at `path` (created with mode 0600 when missing, put in WAL
    /// mode), in a table `audit_log` beside whatever else the file holds.
    /// - Throws: GRDB's errors opening or migrating the file.
    public static func sqlite(path: String, maxRows: Int = defaultMaxRows) throws -> DatabaseAuditTrail {
        // Readable by its owner only, as the credentials file: it keeps the data written.
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("tablepages audit_log") { db in
            for statement in definition(of: "audit_log", id: "INTEGER PRIMARY KEY AUTOINCREMENT", real: "REAL") {
                try db.execute(sql: statement)
            }
        }
        let store = try Store.open(path: path, migrator: migrator)
        return DatabaseAuditTrail(reader: store, ownStore: store, table: "audit_log", maxRows: maxRows)
    }

    /// A trail in `tablepages.audit_log` of the PostgreSQL database `database` writes, creating
    /// the schema and the table when missing (instances starting together take turns), and giving
    /// it row-level security when this role owns it; a trail another role owns is used as it is
    /// (``lacksRowSecurity`` says whether it needs its owner's care). Blocks its thread.
    /// - Throws: PostgreSQL's errors, e.g. when the user may not create the schema.
    public static func postgres(database: any TableWriteDatabase, maxRows: Int = defaultMaxRows) throws -> DatabaseAuditTrail {
        let (schema, table) = (SQLIdentifier.quoted(postgresSchema), postgresTable)
        let lacksRowSecurity = try database.transaction { db in
            try db.execute("SELECT pg_catalog.pg_advisory_xact_lock(\(Self.postgresLock))")
            // A trail another role owns is only written: `CREATE INDEX IF NOT EXISTS` and
            // `CREATE SCHEMA IF NOT EXISTS` check their privileges before whether it exists.
            let ownedByAnother = try db.row("""
                SELECT COALESCE((SELECT NOT pg_catalog.pg_has_role(relowner, 'USAGE') FROM pg_catalog.pg_class
                                 WHERE oid = pg_catalog.to_regclass(\(literal(table)))), false)
                """)?.bool(0) ?? false
            if !ownedByAnother {
                try db.execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
                for statement in definition(of: table, id: "bigserial PRIMARY KEY", real: "double precision") {
                    try db.execute(statement.replacingOccurrences(of: "CREATE TABLE", with: "CREATE TABLE IF NOT EXISTS")
                        .replacingOccurrences(of: "CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS"))
                }
                try db.execute(rowSecurity(of: table))
            }
            return try db.row("SELECT NOT relrowsecurity FROM pg_catalog.pg_class WHERE oid = \(literal(table))::regclass")?.bool(0) ?? true
        }
        return DatabaseAuditTrail(reader: database, ownStore: nil, table: table, maxRows: maxRows, lacksRowSecurity: lacksRowSecurity)
    }

    /// The PostgreSQL statement that keeps the trail's rows from every role that may not write it,
    /// run by its owner at each start (a trail made before it gets it too): row-level security with
    /// one policy, rows only for a role that may insert into the table. A reader role given
    /// `pg_read_all_data` (as docs/operations.md offers for `--sql-url`), `SELECT` on every table
    /// of the schema, or default privileges, sees no rows: such grants pass over privileges but not
    /// row security. The owner is exempt (without `FORCE`), and so are superusers and `BYPASSRLS`
    /// roles, which visitors' SQL refuses to run as; a role that may insert is refused too.
    static func rowSecurity(of table: String) -> String {
        let statements = rowSecurityStatements(of: table)
        return """
            DO $$ BEGIN
                IF pg_catalog.pg_has_role((SELECT relowner FROM pg_catalog.pg_class WHERE oid = \(literal(table))::regclass), 'USAGE') THEN
                    IF NOT (SELECT relrowsecurity FROM pg_catalog.pg_class WHERE oid = \(literal(table))::regclass) THEN
                        \(statements[0])
                    END IF;
                    IF NOT EXISTS (SELECT FROM pg_catalog.pg_policy WHERE polrelid = \(literal(table))::regclass AND polname = 'writers_only') THEN
                        \(statements[1])
                    END IF;
                END IF;
            END $$
            """
    }

    /// The statements that give the PostgreSQL trail `table` its row-level security
    /// (``postgresTable`` by default), for its owner to run when another role cannot
    /// (``lacksRowSecurity``): enabling it, and the one policy.
    public static func rowSecurityStatements(of table: String = postgresTable) -> [String] {
        [
            "ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY;",
            "CREATE POLICY writers_only ON \(table) USING ((SELECT pg_catalog.has_table_privilege(\(literal(table)), 'INSERT')));",
        ]
    }

    /// `table`, TablePages' own quoted name, as a string literal, for regclass and privilege checks.
    private static func literal(_ table: String) -> String {
        "'" + table.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Entries inserted by one statement: 1,100 parameters, within SQLite's and PostgreSQL's limits.
    private static let rowsPerStatement = 100

    /// The advisory lock instances take to create the table ("TPaudit").
    private static let postgresLock: Int64 = 0x5450_6175_6469_74

    private static func definition(of table: String, id: String, real: String) -> [String] {
        let name = table.split(separator: ".").last.map { $0.replacingOccurrences(of: "\"", with: "") } ?? table
        return [
            """
            CREATE TABLE \(table) (
                id \(id), write_id TEXT NOT NULL, undoes TEXT, time \(real) NOT NULL,
                actor_id TEXT NOT NULL, actor_name TEXT NOT NULL, channel TEXT NOT NULL,
                table_name TEXT NOT NULL, row_key TEXT NOT NULL, action TEXT NOT NULL, old_values TEXT, new_values TEXT
            )
            """,
            "CREATE INDEX \(SQLIdentifier.quoted(name + "_actor")) ON \(table) (actor_id, id)",
            "CREATE INDEX \(SQLIdentifier.quoted(name + "_undoes")) ON \(table) (undoes)",
        ]
    }

    // MARK: AuditTrail

    /// Inserts one row per entry under a new write id, then drops the rows beyond ``maxRows``.
    /// In the written database (PostgreSQL) the last chunk of entries, the drop and reading the
    /// transaction's id are one statement (each statement is a round trip), and the id is the
    /// session's when it names its write (``IdentifiedWriteSession``), which is told the
    /// transaction's id and the last entry's number, so that a lost `COMMIT` can be looked up.
    public func record(_ entries: [AuditEntry], writing session: any SQLSession) throws {
        let identified = ownStore == nil ? session as? any IdentifiedWriteSession : nil
        let writeID = identified?.writeID ?? UUID().uuidString
        // PostgreSQL's parameters are text: the time is cast to its column's type.
        let row = "(?, ?, \(reader.dialect.placeholder(type: "double precision")), ?, ?, ?, ?, ?, ?, ?, ?)"
        let columns = "write_id, undoes, time, actor_id, actor_name, channel, table_name, row_key, action, old_values, new_values"
        func insert(into session: any SQLSession) throws {
            // Many rows a statement: on PostgreSQL each statement is a round trip.
            for start in stride(from: 0, to: entries.count, by: Self.rowsPerStatement) {
                let chunk = entries[start..<min(start + Self.rowsPerStatement, entries.count)]
                var arguments: [SQLValue] = []
                arguments.reserveCapacity(chunk.count * 11)
                for entry in chunk {
                    arguments += [
                        .text(writeID), .text(entry.undoes), .real(entry.time.timeIntervalSince1970),
                        .text(entry.author.actorID), .text(entry.author.name), .text(entry.author.channel.rawValue),
                        .text(entry.table), .text(DatabaseValueCoding.encode(entry.key.values)), .text(entry.action.rawValue),
                        .text(try Self.encode(entry.old)), .text(try Self.encode(entry.new)),
                    ]
                }
                let insert = "INSERT INTO \(table) (\(columns)) VALUES \(Array(repeating: row, count: chunk.count).joined(separator: ", "))"
                guard ownStore == nil, chunk.endIndex == entries.endIndex else {
                    try session.execute(insert, arguments)
                    continue
                }
                // The drop sees the table as the statement began, without these rows: it keeps
                // `maxRows` below the newest of them, as the drop after them would.
                let recorded = try session.row("""
                    WITH inserted AS (\(insert) RETURNING id),
                    dropped AS (DELETE FROM \(table) WHERE id <= (SELECT max(id) FROM inserted) - \(maxRows))
                    SELECT txid_current(), max(id) FROM inserted
                    """, arguments)
                if let identified, let recorded {
                    identified.recorded(transactionID: try recorded.int64(0), lastEntry: try recorded.int64(1))
                }
                return
            }
            try session.execute("DELETE FROM \(table) WHERE id <= (SELECT max(id) FROM \(table)) - \(maxRows)")
        }
        if let ownStore {
            try ownStore.transaction { try insert(into: $0) }
        } else {
            try insert(into: session)
        }
    }

    /// Newest first, by number.
    public func records(before: Int64?, limit: Int, tables: Set<String>?) throws -> [AuditRecord] {
        if let tables, tables.isEmpty { return [] }
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let before {
            conditions.append("id < \(reader.dialect.placeholder(type: "bigint"))")
            arguments.append(.integer(before))
        }
        if let tables {
            conditions.append("table_name IN (\(tables.map { _ in "?" }.joined(separator: ", ")))")
            arguments += tables.sorted().map(SQLValue.text)
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try reader.snapshot { db in
            try db.rows("SELECT \(Self.columns) FROM \(table)\(filter) ORDER BY id DESC LIMIT \(max(0, limit))", arguments).map(Self.decode)
        }
    }

    /// The write found by the actor index, newest first, that no later write undid.
    public func lastUndoableWrite(by actorID: String) throws -> [AuditRecord] {
        try reader.snapshot { db in
            let last = try db.row("""
                SELECT write_id FROM \(table) AS a
                WHERE actor_id = ? AND undoes IS NULL AND NOT EXISTS (SELECT 1 FROM \(table) AS u WHERE u.undoes = a.write_id)
                ORDER BY id DESC LIMIT 1
                """, [.text(actorID)])
            guard let writeID = last?.values.first else { return [] }
            return try db.rows("SELECT \(Self.columns) FROM \(table) WHERE write_id = ? ORDER BY id", [writeID]).map(Self.decode)
        }
    }

    // MARK: Encoding

    private static let columns = "id, write_id, undoes, time, actor_id, actor_name, channel, table_name, row_key, action, old_values, new_values"

    /// A row's values as a JSON object of each value's typed encoding.
    private static func encode(_ values: [String: SQLValue]?) throws -> String? {
        guard let values else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(values.mapValues { DatabaseValueCoding.encode([$0]) }), as: UTF8.self)
    }

    private static func decodeValues(_ value: SQLValue) -> [String: SQLValue]? {
        guard let text = value.stringValue,
              let encoded = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else { return nil }
        return encoded.compactMapValues { DatabaseValueCoding.decode($0, count: 1)?.first }
    }

    private static func decode(_ row: SQLRow) -> AuditRecord {
        let values = row.values
        let key = values[8].stringValue ?? ""
        let keyCount = key.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false).count
        let author = WriteAuthor(
            actorID: values[4].stringValue ?? "", name: values[5].stringValue ?? "",
            channel: values[6].stringValue.flatMap(WriteAuthor.Channel.init(rawValue:)) ?? .api
        )
        let time: Double = switch values[3] {
        case .real(let seconds): seconds
        case .integer(let seconds): Double(seconds)
        default: 0
        }
        let entry = AuditEntry(
            time: Date(timeIntervalSince1970: time), author: author, table: values[7].stringValue ?? "",
            key: RowKey(DatabaseValueCoding.decode(key, count: keyCount) ?? []),
            action: values[9].stringValue.flatMap(AuditEntry.Action.init(rawValue:)) ?? .update,
            old: decodeValues(values[10]), new: decodeValues(values[11]), undoes: values[2].stringValue
        )
        return AuditRecord(id: Int64(values[0].intValue ?? 0), writeID: values[1].stringValue ?? "", entry: entry)
    }
}
