import TableStore

/// The SQL of a ``TableWriter``'s statements for one table, in its database's dialect. Every
/// statement that writes returns the row it wrote (`RETURNING`), read as the pages read rows: its
/// key, then every column.
struct TableWriteStatements {
    /// A row as a write returned it.
    struct Row {
        /// The row's key.
        let key: RowKey
        /// Every column's value, by column.
        let values: [String: SQLValue]
    }

    let schema: DatabaseTableSchema

    /// The columns that identify a row in a client's data (an upsert's, a replacing insert's):
    /// the primary key, or for a SQLite table without one, its rowid.
    var identityColumns: [String] {
        schema.primaryKeyColumns.isEmpty ? schema.key : schema.primaryKeyColumns
    }

    /// The column a client's `name` stands for: one of the table's columns, or the rowid alias
    /// of a SQLite table whose key is the rowid alone.
    func writableColumn(named name: String) -> String? {
        if let column = schema.column(named: name) { return column }
        guard schema.keyIsRowID, schema.rowIDColumn == nil, schema.dialect == .sqlite, schema.key[0].lowercased() == name.lowercased() else { return nil }
        return schema.key[0]
    }

    /// The key, then every column, as a row is read back.
    var selectList: String {
        (schema.key + schema.columns).map(schema.selected).joined(separator: ", ")
    }

    /// `a = ? AND b = ?` over `columns`, each value cast to its column's type in PostgreSQL.
    func matching(_ columns: [String]) -> String {
        columns.map { "\(SQLIdentifier.quoted($0)) = \(schema.placeholder(for: $0))" }.joined(separator: " AND ")
    }

    /// `(a, b) VALUES (?, ?)` for `columns` (`count` rows of placeholders), or `DEFAULT VALUES` for none.
    private func values(of columns: [String], rows count: Int) -> String {
        guard !columns.isEmpty else { return "DEFAULT VALUES" }
        let row = "(\(columns.map(schema.placeholder(for:)).joined(separator: ", ")))"
        return "(\(columns.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES \(Array(repeating: row, count: count).joined(separator: ", "))"
    }

    /// Inserts values of `columns` (in this order), or where a row has the same `keys`, sets the
    /// others of `columns` to them and leaves the rest as they are (Datasette's upsert, as
    /// sqlite-utils writes it); returns no row when the row exists and there are no others.
    /// With `count`, as many rows, each written after the one before.
    func upsert(_ columns: [String], on keys: [String], rows count: Int = 1) -> String {
        let others = columns.filter { column in !keys.contains { $0.lowercased() == column.lowercased() } }
        let action = others.isEmpty
            ? "DO NOTHING"
            : "DO UPDATE SET " + others.map { "\(SQLIdentifier.quoted($0)) = excluded.\(SQLIdentifier.quoted($0))" }.joined(separator: ", ")
        return "INSERT INTO \(schema.quotedName) \(values(of: columns, rows: count)) ON CONFLICT (\(keys.map(SQLIdentifier.quoted).joined(separator: ", "))) \(action) RETURNING \(selectList)"
    }

    /// Inserts values of `columns` (all of them, in this order), as `conflict` says; with
    /// `count`, as many rows.
    func insert(_ columns: [String], onConflict conflict: InsertConflict, rows count: Int = 1) -> String {
        let values = values(of: columns, rows: count)
        switch schema.dialect {
        case .sqlite:
            let verb = switch conflict {
            case .fail: "INSERT"
            case .ignore: "INSERT OR IGNORE"
            case .replace: "INSERT OR REPLACE"
            }
            return "\(verb) INTO \(schema.quotedName) \(values) RETURNING \(selectList)"
        case .postgresql:
            let onConflict: String
            switch conflict {
            case .fail:
                onConflict = ""
            case .ignore:
                onConflict = " ON CONFLICT DO NOTHING"
            case .replace:
                // As SQLite's REPLACE: the row becomes the new one, its other columns their defaults.
                let others = schema.columns.filter { !schema.key.contains($0) }
                let assignments = others.isEmpty
                    ? schema.key.prefix(1).map { "\(SQLIdentifier.quoted($0)) = EXCLUDED.\(SQLIdentifier.quoted($0))" }
                    : others.map { "\(SQLIdentifier.quoted($0)) = \(columns.contains($0) ? "EXCLUDED." + SQLIdentifier.quoted($0) : "DEFAULT")" }
                onConflict = " ON CONFLICT (\(schema.key.map(SQLIdentifier.quoted).joined(separator: ", "))) DO UPDATE SET \(assignments.joined(separator: ", "))"
            }
            return "INSERT INTO \(schema.quotedName) \(values)\(onConflict) RETURNING \(selectList)"
        }
    }

    /// Sets `columns` (their values first, then the key's) in the row with a key.
    func update(_ columns: [String]) -> String {
        let assignments = columns.map { "\(SQLIdentifier.quoted($0)) = \(schema.placeholder(for: $0))" }.joined(separator: ", ")
        return "UPDATE \(schema.quotedName) SET \(assignments) WHERE \(matching(schema.key)) RETURNING \(selectList)"
    }

    /// The row whose `columns` have `values`, locked for the rest of the transaction when
    /// `locking` (PostgreSQL; a SQLite write transaction excludes other writers anyway).
    func row(matching columns: [String], _ values: [SQLValue], locking: Bool, in session: any SQLSession) throws -> Row? {
        let lock = locking && schema.dialect == .postgresql ? " FOR UPDATE" : ""
        return try session.row("SELECT \(selectList) FROM \(schema.quotedName) WHERE \(matching(columns)) LIMIT 1\(lock)", values).map(decode)
    }

    /// Every row whose `columns` have `values`, as a write returns them.
    func rows(matching columns: [String], _ values: [SQLValue], in session: any SQLSession) throws -> [Row] {
        try session.rows("SELECT \(selectList) FROM \(schema.quotedName) WHERE \(matching(columns))", values).map(decode)
    }

    /// A row read with ``selectList``.
    func decode(_ row: SQLRow) -> Row {
        let values = row.values
        var byColumn: [String: SQLValue] = [:]
        for (column, value) in zip(schema.columns, values.dropFirst(schema.key.count)) { byColumn[column] = value }
        return Row(key: RowKey(Array(values.prefix(schema.key.count))), values: byColumn)
    }
}
