import TableStore

extension TableWriter {
    /// The most parameters one batched statement binds: SQLite's oldest limit, which every build
    /// of it accepts.
    static let batchParameters = 999

    /// Writes `rows` (each the values of `columns`, in this order) in `session` as
    /// `insertRow(_:onConflict:upsertingOn:uniqueIndexes:by:in:entries:)` writes them one by one,
    /// with the same audit entries (every row changed, its exact old and new values), in as few
    /// statements as the parameter limit allows, and returns the keys of the rows written, in
    /// order (none for a row ignored, or upserted with nothing to set): each chunk one multi-row statement returning the
    /// rows it wrote, and for an upsert one query before it for the rows it may change. Preparing
    /// a statement with `RETURNING` and reading back each row by key cost more than the writes.
    ///
    /// A replace in a table with a UNIQUE index (SQLite says which rows it removes to nobody, so
    /// they are found a row at a time), rows of no columns, rows not all giving the primary key
    /// for an upsert or a replace, and PostgreSQL go `insertRow`'s way. SQLite returns the rows
    /// of a multi-row statement in the order it wrote them, so a batch that writes one key twice
    /// keeps each step's old values.
    func insertRows(
        _ rows: [[SQLValue]], columns: [String], onConflict conflict: InsertConflict, upsertingOn keys: [String]?,
        by author: WriteAuthor, in session: any SQLSession, entries: inout [AuditEntry]
    ) throws -> [RowKey] {
        // An upsert, or a replace, changes the rows with the same identity: their old values are read first.
        let readsOld = keys != nil || conflict == .replace
        let identity = readsOld ? statements.identityColumns.map { column in columns.firstIndex { statements.writableColumn(named: $0) == column } } : []
        let indexes = conflict == .replace && keys == nil ? try uniqueIndexes(in: session) : []
        guard schema.dialect == .sqlite, indexes.isEmpty, !columns.isEmpty, !identity.contains(nil) else {
            return try rows.compactMap { row in
                try insertRow(Array(zip(columns, row)), onConflict: conflict, upsertingOn: keys, uniqueIndexes: indexes, by: author, in: session, entries: &entries)?.key
            }
        }
        var keysWritten: [RowKey] = []
        keysWritten.reserveCapacity(rows.count)
        let perStatement = max(1, Self.batchParameters / columns.count)
        var start = 0
        while start < rows.count {
            let chunk = rows[start ..< min(rows.count, start + perStatement)]
            start += chunk.count
            var current = !readsOld ? [:] : try existingRows(chunk.map { row in identity.map { row[$0!] } }, in: session)
            let sql = keys.map { statements.upsert(columns, on: $0, rows: chunk.count) } ?? statements.insert(columns, onConflict: conflict, rows: chunk.count)
            var arguments: [SQLValue] = []
            arguments.reserveCapacity(chunk.count * columns.count)
            for row in chunk { arguments += row }
            for written in try session.rows(sql, arguments).map(statements.decode) {
                keysWritten.append(written.key)
                let old = current.updateValue(written.values, forKey: written.key)
                if let old, old == written.values { continue }
                entries.append(entry(author, written.key, old == nil ? .insert : .update, old: old, new: written.values))
            }
        }
        return keysWritten
    }

    /// The rows whose identity columns (the primary key, or the rowid) have one of `identities`'
    /// values, by key, read in one query.
    private func existingRows(_ identities: [[SQLValue]], in session: any SQLSession) throws -> [RowKey: [String: SQLValue]] {
        let condition = "(" + statements.matching(statements.identityColumns) + ")"
        let sql = "SELECT \(statements.selectList) FROM \(schema.quotedName) WHERE " + Array(repeating: condition, count: identities.count).joined(separator: " OR ")
        var found: [RowKey: [String: SQLValue]] = [:]
        for row in try session.rows(sql, Array(identities.joined())).map(statements.decode) { found[row.key] = row.values }
        return found
    }
}
