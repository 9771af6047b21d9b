import GRDB
import Logging
import TableStore

/// The writes of Datasette's write API on a SQLite file, each in one transaction, in the statements
/// Datasette (through sqlite-utils) runs for them, so that SQLite decides alike: the same rows
/// end up stored, the same constraint refuses the same row with the same message, and a table
/// created or altered has the same `CREATE TABLE` text in `sqlite_master`.
///
/// Every row written goes through the table's ``TableWriter`` (a statement for each chunk of rows,
/// or for each row where Datasette returns them, returning the rows), so that the audit trail keeps
/// it and its author can undo it.
///
/// Blocking: call it on a thread that may block (`DatasetteWriteAPI` runs it on one of its own).
struct DatasetteWriter: Sendable {
    let store: Store
    let logger: Logger

    /// A write SQLite refused (a constraint, a missing column): its message, as Datasette passes it on.
    struct Refused: Error {
        var message: String
    }

    /// Inserts (or with `upsert`, upserts) `request`'s rows into `table`, each row's change kept
    /// in `audit` as `author`'s; returns the rows stored when the request asks for them (`rowid`
    /// first for a rowid table), each as columns and values.
    func insert(
        _ request: DatasetteWriteRequest.Insert, into table: String, pks: [String], upsert: Bool, audit: (any AuditTrail)?, by author: WriteAuthor
    ) throws -> [[(String, SQLValue)]]? {
        try write(audit: audit) { db, entries in
            if request.alter { try addMissingColumns(request.rows, to: table, in: db) }
            let writer = try tableWriter(table, audit: audit, in: db)
            let keys = pks.isEmpty ? ["rowid"] : pks
            let conflict: InsertConflict = request.replace ? .replace : request.ignore ? .ignore : .fail
            if request.returnsRows && !upsert {
                // One statement per row, as Datasette's returning insert runs them, each row's own columns.
                var rowids: [SQLValue] = []
                let indexes = conflict == .replace ? try writer.uniqueIndexes(in: db) : []
                for row in request.rows {
                    let written = try writer.insertRow(
                        Array(zip(row.columns, row.values)), onConflict: conflict, upsertingOn: nil, uniqueIndexes: indexes, by: author, in: db, entries: &entries
                    )
                    guard written != nil else {
                        // An ignored row is returned as the row it clashed with, found by the key it names.
                        let key = pks.compactMap { row.value(of: $0) }
                        guard !pks.isEmpty, key.count == pks.count else { continue }
                        let condition = pks.map { "\(SQLIdentifier.quoted($0)) = ?" }.joined(separator: " AND ")
                        if let rowid = try db.row("SELECT rowid FROM \(SQLIdentifier.quoted(table)) WHERE \(condition) LIMIT 1", key)?.values.first { rowids.append(rowid) }
                        continue
                    }
                    rowids.append(try db.row("SELECT last_insert_rowid()")?.values.first ?? .null)
                }
                return try rows(of: table, where: "rowid IN (\(Array(repeating: "?", count: rowids.count).joined(separator: ",")))", rowids, withRowID: false, in: db)
            }
            try insertAll(request.rows, with: writer, onConflict: conflict, upsertingOn: upsert ? keys : nil, by: author, in: db, entries: &entries)
            guard request.returnsRows else { return nil }
            guard !request.rows.isEmpty else { return [] }
            let condition = "(" + keys.map { "\(SQLIdentifier.quoted($0)) = ?" }.joined(separator: " AND ") + ")"
            let arguments = request.rows.flatMap { row in keys.map { row.value(of: $0) ?? .null } }
            return try rows(of: table, where: Array(repeating: condition, count: request.rows.count).joined(separator: " OR "), arguments, withRowID: pks.isEmpty, in: db)
        }
    }

    /// Writes `rows` through `writer` as sqlite-utils' `insert_all` and `upsert_all` do: every
    /// row with every column any of them names, in the order first named, NULL where a row names
    /// none (so an upsert sets such a column to NULL in a row that exists).
    private func insertAll(
        _ rows: [DatasetteWriteRequest.Row], with writer: TableWriter, onConflict conflict: InsertConflict, upsertingOn keys: [String]?,
        by author: WriteAuthor, in db: any SQLSession, entries: inout [AuditEntry]
    ) throws {
        let columns = Self.union(rows.map(\.columns))
        let values = rows.map { row in columns.map { row.value(of: $0) ?? .null } }
        _ = try writer.insertRows(values, columns: columns, onConflict: conflict, upsertingOn: keys, by: author, in: db, entries: &entries)
    }

    /// The writer of `table` as it is in `db` now (after an `alter`, with its new columns).
    private func tableWriter(_ table: String, audit: (any AuditTrail)?, in db: any SQLSession) throws -> TableWriter {
        TableWriter(schema: try DatabaseTableSchema.schema(of: table, in: db), database: store, audit: audit, logger: logger)
    }

    /// Adds the columns `rows` name that `table` lacks (Datasette's `alter`), in a transaction of its own.
    func addMissingColumns(_ rows: [DatasetteWriteRequest.Row], to table: String) throws {
        try write(audit: nil) { db, _ in try addMissingColumns(rows, to: table, in: db) }
    }

    /// Creates `request`'s table (or, from rows into a table that exists, inserts them, each
    /// row's change kept in `audit` as `author`'s); returns the table's `CREATE TABLE` text after.
    func create(_ request: DatasetteWriteRequest.Create, existingKey: [String]?, audit: (any AuditTrail)?, by author: WriteAuthor) throws -> String {
        try write(audit: audit) { db, entries in
            let table = request.table
            if let rows = request.rows {
                if existingKey == nil {
                    let columns = Self.suggestedColumns(rows).map { DatasetteTableDefinition.Column(name: $0.0, type: $0.1) }
                    try db.execute(DatasetteTableDefinition(table: table, columns: columns, pks: request.pks).sql)
                } else if request.alter {
                    try addMissingColumns(rows, to: table, in: db)
                }
                let conflict: InsertConflict = request.replace ? .replace : request.ignore ? .ignore : .fail
                try insertAll(rows, with: try tableWriter(table, audit: audit, in: db), onConflict: conflict, upsertingOn: nil, by: author, in: db, entries: &entries)
            } else {
                try db.execute(try DatasetteTableDefinition.resolving(request.columns ?? [], table: table, pks: request.pks, in: db).sql)
            }
            return try Self.schemaText(of: table, in: db) ?? ""
        }
    }

    /// The `CREATE TABLE` text of `table`; nil when there is no such table.
    static func schemaText(of table: String, in db: any SQLSession) throws -> String? {
        try db.row("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [.text(table)])?.values.first?.stringValue
    }

    // MARK: SQL

    /// The columns sqlite-utils makes for `rows`: in the order they are first named, each typed
    /// by the kinds of its values (null left out unless it is all there is).
    static func suggestedColumns(_ rows: [DatasetteWriteRequest.Row]) -> [(String, String)] {
        var order: [String] = []
        var kinds: [String: Set<DatasetteWriteRequest.ValueKind>] = [:]
        for row in rows {
            for (column, kind) in zip(row.columns, row.kinds) {
                if kinds[column] == nil { order.append(column) }
                kinds[column, default: []].insert(kind)
            }
        }
        return order.map { ($0, columnType(for: kinds[$0] ?? [])) }
    }

    /// sqlite-utils' column type for values of `kinds`.
    static func columnType(for given: Set<DatasetteWriteRequest.ValueKind>) -> String {
        var kinds = given
        if kinds.count > 1 { kinds.remove(.null) }
        if kinds.isEmpty || kinds == [.null] { return "TEXT" }
        if kinds.count == 1 {
            switch kinds.first {
            case .integer?, .boolean?: return "INTEGER"
            case .real?: return "REAL"
            case .blob?: return "BLOB"
            default: return "TEXT"
            }
        }
        if kinds.isSubset(of: [.integer, .boolean]) { return "INTEGER" }
        if kinds.isSubset(of: [.integer, .real, .boolean]) { return "REAL" }
        if kinds.isSubset(of: [.blob, .text]) { return "BLOB" }
        return "TEXT"
    }

    /// `ALTER TABLE … ADD COLUMN` for each column `rows` name that `table` lacks, typed by their values.
    private func addMissingColumns(_ rows: [DatasetteWriteRequest.Row], to table: String, in db: any SQLSession) throws {
        let existing = Set(try db.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.values.first?.stringValue?.lowercased() })
        for (column, type) in Self.suggestedColumns(rows) where !existing.contains(column.lowercased()) {
            try db.execute("ALTER TABLE \(SQLIdentifier.quoted(table)) ADD COLUMN \(SQLIdentifier.quoted(column)) \(type)")
        }
    }

    /// Rows of `table` matching `condition`, every column (`rowid` first when `withRowID`).
    private func rows(of table: String, where condition: String, _ arguments: [SQLValue], withRowID: Bool, in db: any SQLSession) throws -> [[(String, SQLValue)]] {
        var columns = try db.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.values.first?.stringValue }
        var select = columns.map(SQLIdentifier.quoted)
        if withRowID {
            columns.insert("rowid", at: 0)
            select.insert("rowid", at: 0)
        }
        return try db.rows("SELECT \(select.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table)) WHERE \(condition)", arguments).map { Array(zip(columns, $0.values)) }
    }

    /// Runs `body` in one write transaction, keeping the audit entries it makes in `audit` in
    /// the same transaction; SQLite's refusals of `body`'s statements become ``Refused`` with
    /// SQLite's message (the audit trail's own failures are the server's).
    private func write<T: Sendable>(audit: (any AuditTrail)?, _ body: (any SQLSession, inout [AuditEntry]) throws -> T) throws -> T {
        try TableWriter.transaction(on: store, audit: audit) { db, entries in
            do {
                return try body(db, &entries)
            } catch let error as DatabaseError {
                throw Refused(message: error.message ?? "\(error)")
            }
        }
    }

    /// Every column any of `lists` names, in the order first named.
    static func union(_ lists: [[String]]) -> [String] {
        var seen: Set<String> = []
        return lists.flatMap { $0 }.filter { seen.insert($0).inserted }
    }
}
