import TableStore

extension DatabaseTableSchema {
    /// Every view of a SQLite database, by name, as a schema without a key (``isView``); a view
    /// that cannot be read (one naming a table or function that is gone) is left out.
    static func views(in db: any SQLSession) throws -> [DatabaseTableSchema] {
        let names = try db.rows("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name").map { $0[0].stringValue ?? "" }
        return names.compactMap { name in
            guard (try? db.execute("SELECT * FROM \(SQLIdentifier.quoted(name)) LIMIT 0")) != nil,
                  let info = try? PragmaColumn.all(of: name, in: db),
                  !info.isEmpty else { return nil }
            var affinities: [String: ColumnAffinity] = [:]
            for column in info { affinities[column.name] = ColumnAffinity(declaredType: column.type) }
            var schema = DatabaseTableSchema(name: name, columns: info.map(\.name), affinities: affinities, key: [], keyIsRowID: false, defaultSort: nil)
            schema.isView = true
            return schema
        }
    }

    /// Every view (and materialized view) of the PostgreSQL schema `namespace` the user may read,
    /// with its columns' types and the tables of the schema it reads (``readTables``, through the
    /// views it reads), from `pg_rewrite`'s dependencies.
    static func postgresViews(in namespace: String, runner: any SQLSession) throws -> [DatabaseTableSchema] {
        let columns = try runner.rows("""
            SELECT c.relname, a.attname, format_type(a.atttypid, NULL)
            FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            WHERE n.nspname = ? AND c.relkind IN ('v', 'm') AND has_table_privilege(c.oid, 'SELECT')
            ORDER BY c.relname COLLATE "C", a.attnum
            """, [.text(namespace)])
        let reads = try runner.rows("""
            SELECT DISTINCT v.relname, t.relname
            FROM pg_class v
            JOIN pg_namespace n ON n.oid = v.relnamespace
            JOIN pg_rewrite r ON r.ev_class = v.oid
            JOIN pg_depend d ON d.objid = r.oid AND d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
            JOIN pg_class t ON t.oid = d.refobjid AND t.oid <> v.oid AND t.relnamespace = n.oid
            WHERE n.nspname = ? AND v.relkind IN ('v', 'm')
            """, [.text(namespace)])
        var direct: [String: Set<String>] = [:]
        for row in reads {
            direct[row[0].stringValue ?? "", default: []].insert(row[1].stringValue ?? "")
        }
        var order: [String] = []
        var columnsByView: [String: [(name: String, type: String)]] = [:]
        for row in columns {
            let name = row[0].stringValue ?? ""
            if columnsByView[name] == nil { order.append(name) }
            columnsByView[name, default: []].append((row[1].stringValue ?? "", row[2].stringValue ?? "text"))
        }
        var byName: [String: DatabaseTableSchema] = [:]
        for name in order {
            let viewColumns = columnsByView[name] ?? []
            var schema = DatabaseTableSchema(name: name, columns: viewColumns.map(\.name), key: [], keyIsRowID: false, defaultSort: nil)
            schema.isView = true
            schema.dialect = .postgresql
            schema.namespace = namespace
            schema.columnTypes = Dictionary(viewColumns.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
            byName[name] = schema
        }
        return order.compactMap { name in
            guard var schema = byName[name] else { return nil }
            // The tables under the views it reads, each view visited once.
            var tables: Set<String> = []
            var visited: Set<String> = [name]
            var pending = Array(direct[name] ?? [])
            while let next = pending.popLast() {
                if direct[next] != nil || byName[next] != nil {
                    if visited.insert(next).inserted { pending += direct[next] ?? [] }
                } else {
                    tables.insert(next)
                }
            }
            schema.readTables = tables.sorted()
            return schema
        }
    }
}
