import TableStore

/// Joins the served tables by their foreign keys: each table learns which of its columns link to
/// another table's rows (``DatabaseLinkedColumn``) and which other tables' columns link to its
/// rows (``DatabaseIncomingLink``). Keys from or to a table that is not served (left out, or a
/// view) are dropped, as are keys to a column the referenced table does not show.
enum DatabaseRelations {
    /// The tables and views of an SQLite database, joined by their foreign keys: what its pages
    /// and its Datasette URLs show alike.
    static func linkedSchemas(in db: any SQLSession) throws -> [DatabaseTableSchema] {
        let tables = try DatabaseTableSchema.all(in: db)
        let keys = try DatabaseForeignKey.all(of: tables.map(\.name), in: db)
        return linking(tables + (try DatabaseTableSchema.views(in: db)), by: keys)
    }

    /// `schemas` with their ``DatabaseTableSchema/linkedColumns`` and
    /// ``DatabaseTableSchema/incomingLinks`` from `keys`, label columns chosen by `labels`.
    static func linking(_ schemas: [DatabaseTableSchema], by keys: [DatabaseForeignKey], labels: DatabaseLabelColumns = DatabaseLabelColumns()) -> [DatabaseTableSchema] {
        var byName: [String: DatabaseTableSchema] = [:]
        for schema in schemas where !schema.isView { byName[schema.name] = byName[schema.name] ?? schema }
        let usable = keys.filter { key in
            guard let referring = byName[key.table], let referenced = byName[key.referencedTable] else { return false }
            return referring.columns.contains(key.column) && referenced.columns.contains(key.referencedColumn)
        }
        return schemas.map { schema in
            guard !schema.isView else { return schema }
            var linked = schema
            var seen: Set<String> = []
            // A column with two keys links by the first one declared.
            // In the order of the table's columns (SQLite lists its keys last declared first).
            let keys = usable.filter { $0.table == schema.name }.sorted { (schema.columns.firstIndex(of: $0.column) ?? 0) < (schema.columns.firstIndex(of: $1.column) ?? 0) }
            linked.linkedColumns = keys.filter { seen.insert($0.column).inserted }.compactMap { key in
                byName[key.referencedTable].map { referenced in
                    DatabaseLinkedColumn(key, referenced: referenced, labelColumn: labels.column(of: referenced.name, columns: referenced.columns))
                }
            }
            linked.incomingLinks = usable.filter { $0.referencedTable == schema.name }.compactMap { key in
                byName[key.table].map { DatabaseIncomingLink(key, referring: $0) }
            }
            return linked
        }
    }
}
