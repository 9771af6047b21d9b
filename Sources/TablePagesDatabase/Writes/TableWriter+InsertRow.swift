import TableStore

extension TableWriter {
    /// Inserts `row` in `session`: its columns in this order, spelled as the client spelled them
    /// (Datasette's statements name them so). As `conflict` says, or given `keys`, as an upsert on
    /// them (`TableWriteStatements.upsert(_:on:rows:)`). Returns the row written; nil when it was
    /// ignored, or an upsert found the row and had nothing to set.
    ///
    /// Every row the statement changed gets its audit entry: the row written (an update when it
    /// was there before under the same key), and with `.replace`, before it, each other row
    /// SQLite removed because the new one clashed with it on the key or a UNIQUE column.
    /// The database's own errors are thrown as it threw them, for the caller to word.
    ///
    /// `uniqueIndexes` are the table's (`uniqueIndexes(in:)`), read once for a batch; only a
    /// SQLite replace needs them.
    func insertRow(
        _ row: [(column: String, value: SQLValue)], onConflict conflict: InsertConflict, upsertingOn keys: [String]?,
        uniqueIndexes: [UniqueIndex?], by author: WriteAuthor, in session: any SQLSession, entries: inout [AuditEntry]
    ) throws -> TableWriteStatements.Row? {
        let columns = row.map(\.column)
        let arguments = row.map(\.value)
        let sql = keys.map { statements.upsert(columns, on: $0) } ?? statements.insert(columns, onConflict: conflict)
        var old: TableWriteStatements.Row?
        var removed: [TableWriteStatements.Row] = []
        if conflict == .replace, keys == nil, schema.dialect == .sqlite, !uniqueIndexes.isEmpty {
            removed = try rowsReplaced(by: sql, arguments, indexes: uniqueIndexes, in: session)
        } else if keys != nil || conflict == .replace {
            // Without a UNIQUE index (a rowid table keyed by it), a replace removes only the row with its key.
            let named = row.compactMap { given in statements.writableColumn(named: given.column).map { (column: $0, value: given.value) } }
            old = try existingRow(identifiedBy: named, in: session)
        }
        guard let written = try session.row(sql, arguments).map(statements.decode) else { return nil }
        if let index = removed.firstIndex(where: { $0.key == written.key }) { old = removed.remove(at: index) }
        for gone in removed { entries.append(entry(author, gone.key, .delete, old: gone.values, new: nil)) }
        if let old, old.values == written.values { return written }
        entries.append(entry(author, written.key, old == nil ? .insert : .update, old: old?.values, new: written.values))
        return written
    }

    /// The rows an `INSERT OR REPLACE` (`sql`) would remove: SQLite removes a row that clashes
    /// with the new one on any UNIQUE index, and says which to nobody. The statement is tried in
    /// a savepoint and rolled back, to learn the new row whole (defaults, affinity, its rowid);
    /// the rows that clash with it then are the ones it removes.
    /// - Throws: ``TableWriteError/invalid(column:message:)`` when a partial or expression
    ///   UNIQUE index removes rows that cannot be told this way (counted, before and after).
    private func rowsReplaced(by sql: String, _ arguments: [SQLValue], indexes: [UniqueIndex?], in session: any SQLSession) throws -> [TableWriteStatements.Row] {
        let counted = indexes.contains { $0 == nil }
        func count() throws -> Int {
            try session.row("SELECT count(*) FROM \(schema.quotedName)")?.values.first?.intValue ?? 0
        }
        try session.execute("SAVEPOINT tablepages_replace")
        let trial: TableWriteStatements.Row?
        var removedCount = 0
        do {
            let before = counted ? try count() : 0
            trial = try session.row(sql, arguments).map(statements.decode)
            if counted { removedCount = before + 1 - (try count()) }
            try session.execute("ROLLBACK TO tablepages_replace")
            try session.execute("RELEASE tablepages_replace")
        } catch {
            try? session.execute("ROLLBACK TO tablepages_replace")
            try? session.execute("RELEASE tablepages_replace")
            throw error
        }
        guard let trial else { return [] }
        var found = try statements.rows(matching: schema.key, trial.key.values, in: session)
        for case let index? in indexes {
            let values = index.map { trial.values[$0.column] ?? .null }
            // NULLs never clash in a UNIQUE index.
            guard !values.contains(.null) else { continue }
            let condition = index.map { "\(SQLIdentifier.quoted($0.column)) = ? COLLATE \(SQLIdentifier.quoted($0.collation))" }.joined(separator: " AND ")
            let clashing = try session.rows("SELECT \(statements.selectList) FROM \(schema.quotedName) WHERE \(condition)", values).map(statements.decode)
            found += clashing.filter { row in !found.contains { $0.key == row.key } }
        }
        if counted, removedCount != found.count {
            throw TableWriteError.invalid(
                column: nil,
                message: "replacing this row would remove rows by a partial or expression UNIQUE index of \(table), which the audit trail cannot name; nothing was written"
            )
        }
        return found
    }

    /// A UNIQUE index's columns, each with its collation.
    typealias UniqueIndex = [(column: String, collation: String)]

    /// The UNIQUE indexes of the table in SQLite (its primary key's unless it is the rowid, its
    /// UNIQUE constraints', its own); nil for one that is partial or on an expression. None in
    /// PostgreSQL, where a replace is keyed by the primary key alone.
    func uniqueIndexes(in session: any SQLSession) throws -> [UniqueIndex?] {
        guard schema.dialect == .sqlite else { return [] }
        let names = try session.rows("SELECT name, partial FROM pragma_index_list(?) WHERE \"unique\" = 1", [.text(table)])
        return try names.map { index -> UniqueIndex? in
            guard let name = index.values[0].stringValue, index.values[1] == .integer(0) else { return nil }
            let parts = try session.rows("SELECT name, coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", [.text(name)])
            let columns = parts.compactMap { part in part.values[0].stringValue.flatMap { column in part.values[1].stringValue.map { (column: column, collation: $0) } } }
            return columns.count == parts.count ? columns : nil
        }
    }
}
