import TableStore

extension DatabaseTableSchema {
    /// Every ordinary or partitioned table of the PostgreSQL schema `namespace` the connection's
    /// user may read, by name, each addressed by its primary key; tables without one cannot be
    /// paged by keyset and are left out (see ``unaddressable``). A single integer key makes row
    /// ids plain numbers, as SQLite's rowid does.
    static func allPostgres(in namespace: String, runner: any SQLSession) throws -> (tables: [DatabaseTableSchema], unaddressable: [String]) {
        // Once, at startup, and not a client's query: the query time limit is not for it.
        try runner.forEachRow("SET LOCAL statement_timeout = 0", []) { _ in }
        let columns = try runner.rows("""
            SELECT c.relname, a.attname, format_type(a.atttypid, NULL), coalesce((SELECT k.n FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) WHERE k.attnum = a.attnum), 0), CASE WHEN a.attnotnull THEN 1 ELSE 0 END
            FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
            WHERE n.nspname = ? AND c.relkind IN ('r', 'p') AND NOT c.relispartition
              AND has_table_privilege(c.oid, 'SELECT')
            ORDER BY c.relname COLLATE "C", a.attnum
            """, [.text(namespace)])
        var tables: [DatabaseTableSchema] = []
        var unaddressable: [String] = []
        var index = columns.startIndex
        while index < columns.endIndex {
            let name = columns[index][0].stringValue ?? ""
            var end = index
            while end < columns.endIndex, columns[end][0].stringValue == name { end += 1 }
            let rows = columns[index..<end]
            index = end
            let names = rows.map { $0[1].stringValue ?? "" }
            var types: [String: String] = [:]
            for row in rows { types[row[1].stringValue ?? ""] = row[2].stringValue }
            let key = rows.compactMap { row -> (Int, String)? in
                let position = row[3].intValue ?? 0
                return position > 0 ? (position, row[1].stringValue ?? "") : nil
            }.sorted { $0.0 < $1.0 }.map(\.1)
            guard !key.isEmpty else {
                unaddressable.append(name)
                continue
            }
            let integerKey = key.count == 1 && ["smallint", "integer", "bigint"].contains(types[key[0]] ?? "")
            var schema = DatabaseTableSchema(name: name, columns: names, key: key, keyIsRowID: integerKey, defaultSort: nil)
            schema.dialect = .postgresql
            schema.columnTypes = types
            schema.notNullColumns = Set(rows.filter { $0[4].intValue == 1 }.map { $0[1].stringValue ?? "" })
            schema.namespace = namespace
            // Ascending by a single-column key is the default order, as by SQLite's rowid.
            schema.rowIDColumn = key.count == 1 ? key[0] : nil
            tables.append(schema)
        }
        return (tables, unaddressable)
    }
}
