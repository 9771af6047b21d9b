import TableStore

extension TableWriter {
    /// Undoes `records` (one write to this table, as the audit trail kept it) in one checked
    /// transaction, last row first: each row must still be as the write left it (a row it
    /// inserted or changed, unchanged since; a row it deleted, not back), else nothing is undone
    /// and the error is ``TableWriteError/conflict(current:)`` with the row as it is now. The
    /// undo is itself audited, as undoing that write. Returns the keys of the rows written.
    func undo(_ records: [AuditRecord], by author: WriteAuthor) async throws(TableWriteError) -> [RowKey] {
        let rowIDAlias = schema.dialect == .sqlite && schema.keyIsRowID && schema.rowIDColumn == nil ? schema.key[0] : nil
        let steps = try records.reversed().map { record throws(TableWriteError) in
            (record: record, old: try record.entry.old.map { old throws(TableWriteError) in try resolve(old) }, new: try record.entry.new.map { new throws(TableWriteError) in try resolve(new) })
        }
        let keys = try await write(by: author) { session, entries in
            try steps.map { step in
                let (record, key) = (step.record, step.record.entry.key)
                switch record.entry.action {
                case .insert:
                    let row = try checkedRow(key, seen: step.new ?? [], in: session)
                    try session.execute("DELETE FROM \(schema.quotedName) WHERE \(statements.matching(schema.key))", row.key.values)
                    entries.append(entry(author, row.key, .delete, old: row.values, new: nil, undoes: record.writeID))
                    return row.key
                case .update:
                    let row = try checkedRow(key, seen: step.new ?? [], in: session)
                    let changes = (step.old ?? []).filter { row.values[$0.column] != $0.value }
                    guard !changes.isEmpty else { return row.key }
                    let new = try updateRow(row.key, changes, in: session)
                    entries.append(entry(author, new.key, .update, old: row.values, new: new.values, undoes: record.writeID))
                    return new.key
                case .delete:
                    if let current = try statements.row(matching: schema.key, key.values, locking: true, in: session) {
                        throw TableWriteError.conflict(current: current.values)
                    }
                    // A rowid without a column of its own is put back too, so the row keeps its id.
                    let old = (rowIDAlias.map { [(column: $0, value: key.values[0])] } ?? []) + (step.old ?? [])
                    let columns = old.map(\.column)
                    guard let written = try run(statements.insert(columns, onConflict: .fail), old.map(\.value), writing: columns, in: session) else {
                        throw TableWriteError.failed(message: "The database wrote no row.", retryable: false)
                    }
                    entries.append(entry(author, written.key, .insert, old: nil, new: written.values, undoes: record.writeID))
                    return written.key
                }
            }
        }
        logger.info("\(author.name) (\(author.channel.rawValue)) undid their last change of \(table) (\(keys.count) row\(keys.count == 1 ? "" : "s"))")
        return keys
    }
}
