import TableStore

/// A single-column foreign key as the database declares it: `column` of one table holds values of
/// `referencedColumn` of `referencedTable`. Keys over several columns are left out, as Datasette
/// leaves them out: a value of one column does not name a row.
struct DatabaseForeignKey: Sendable, Hashable {
    /// The referencing table.
    let table: String
    /// The referencing column, in `table`.
    let column: String
    /// The referenced table.
    let referencedTable: String
    /// The referenced column, in `referencedTable`.
    let referencedColumn: String

    /// The single-column foreign keys of every table in `tables` of a SQLite database, from
    /// `PRAGMA foreign_key_list`. A key declared without its column (`REFERENCES customers`) refers
    /// to the referenced table's primary key, which must then be one column.
    static func all(of tables: [String], in db: any SQLSession) throws -> [DatabaseForeignKey] {
        var keys: [DatabaseForeignKey] = []
        for table in tables {
            let rows = try db.rows("SELECT id, \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", [.text(table)])
            let byConstraint = Dictionary(grouping: rows) { $0[0].intValue ?? 0 }
            for id in byConstraint.keys.sorted() {
                guard let parts = byConstraint[id], parts.count == 1 else { continue }
                let referenced = parts[0][2].stringValue ?? ""
                var referencedColumn = parts[0][3].stringValue
                if referencedColumn == nil {
                    let primaryKey = try db.rows("SELECT name FROM pragma_table_info(?) WHERE pk > 0", [.text(referenced)])
                    referencedColumn = primaryKey.count == 1 ? primaryKey[0][0].stringValue : nil
                }
                guard let referencedColumn else { continue }
                keys.append(DatabaseForeignKey(table: table, column: parts[0][1].stringValue ?? "", referencedTable: referenced, referencedColumn: referencedColumn))
            }
        }
        return keys
    }

    /// The single-column foreign keys whose referencing table is in the PostgreSQL schema
    /// `namespace` and whose referenced table is in it too, from `pg_constraint`.
    static func allPostgres(in namespace: String, runner: any SQLSession) throws -> [DatabaseForeignKey] {
        let rows = try runner.rows("""
            SELECT c.relname, a.attname, r.relname, ra.attname
            FROM pg_constraint k
            JOIN pg_class c ON c.oid = k.conrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_class r ON r.oid = k.confrelid
            JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
            JOIN pg_attribute ra ON ra.attrelid = k.confrelid AND ra.attnum = k.confkey[1]
            WHERE k.contype = 'f' AND cardinality(k.conkey) = 1 AND n.nspname = ? AND r.relnamespace = n.oid
            ORDER BY c.relname COLLATE "C", k.conname COLLATE "C"
            """, [.text(namespace)])
        return rows.map { row in
            DatabaseForeignKey(
                table: row[0].stringValue ?? "", column: row[1].stringValue ?? "",
                referencedTable: row[2].stringValue ?? "", referencedColumn: row[3].stringValue ?? ""
            )
        }
    }
}
