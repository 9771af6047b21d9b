import Foundation
import Logging
import Synchronization
import TableStore

/// Writes to one table of a user's database (SQLite or PostgreSQL): every call one transaction
/// (a batch of rows is written whole or not at all), every changed row kept in the audit trail,
/// and every open page of the table told at once. The database decides what it accepts: its
/// types, NOT NULL, CHECK, UNIQUE and foreign keys refuse a value with a
/// ``TableWriteError/constraint(column:rule:message:)`` naming the column.
///
///     let writer = try writers.writer(forTable: "item")
///     let keys = try await writer.insert([["title": "Pack"]], by: author)
///     let after = try await writer.update(keys[0], set: ["title": "Unpack"], seen: ["title": "Pack"], by: author)
///
/// An update or a delete given `seen` (the values the editor saw, by column) is checked: when the
/// row now differs in any of them, or is gone, nothing is written and the error is
/// ``TableWriteError/conflict(current:)`` with the row as it is now. On PostgreSQL the row is
/// locked (`FOR UPDATE`) from the check to the write; SQLite has one writer at a time.
///
/// Values are stored as given: SQLite converts them by the column's affinity (or refuses them in a
/// STRICT table); PostgreSQL casts each from its text to the column's type. Rows come back as the
/// pages read them (PostgreSQL types beyond numbers, text and bytes as their text).
/// The blocking work runs on a thread of its own, never on Swift's cooperative pool.
public struct TableWriter: Sendable {
    let schema: DatabaseTableSchema
    let database: any TableWriteDatabase
    let audit: (any AuditTrail)?
    /// The table's columns that hold foreign keys, to name the column of a foreign key refusal
    /// (SQLite names none).
    let foreignKeyColumns: [String]
    let onWrite: (@Sendable () -> Void)?
    let logger: Logger
    /// Tells this writer from one made later for a table of the same name and columns (rebuilt
    /// with another key, default or constraint), so what was read for it is not reused.
    let generation: Int
    private static let made = Atomic<Int>(0)

    init(
        schema: DatabaseTableSchema, database: any TableWriteDatabase, audit: (any AuditTrail)?, foreignKeyColumns: [String] = [],
        onWrite: (@Sendable () -> Void)? = nil, logger: Logger
    ) {
        self.schema = schema
        self.database = database
        self.audit = audit
        self.foreignKeyColumns = foreignKeyColumns
        self.onWrite = onWrite
        self.logger = logger
        generation = Self.made.add(1, ordering: .relaxed).newValue
    }

    /// The table's name.
    public var table: String { schema.name }
    /// The table's columns, in the order its pages show them (the primary key's first).
    public var columns: [String] { schema.columns }
    /// The names of a ``RowKey``'s values: the rowid (`rowid`, or another alias when a column is
    /// called so) or the primary key's columns.
    public var keyColumns: [String] { schema.key }

    /// The columns that identify a row in a client's data, as Datasette names a table's primary
    /// key: the primary key's columns, or `rowid` (another alias when a column is called so) for
    /// a SQLite table without one. An upsert's rows must give them.
    public var primaryKey: [String] { statements.identityColumns }

    /// The key of the row whose ``primaryKey`` columns have `values` (as a Datasette URL gives
    /// them); nil when there is none. For most tables the key is those values; a SQLite rowid
    /// table with another kind of primary key (`code TEXT PRIMARY KEY`) is keyed by its rowid.
    public func key(forPrimaryKey values: [SQLValue]) async throws -> RowKey? {
        let (database, statements, identity) = (database, statements, statements.identityColumns)
        guard values.count == identity.count else { return nil }
        return try await OwnThread.run {
            try database.snapshot { session in try statements.row(matching: identity, values, locking: false, in: session)?.key }
        }
    }

    /// The key a table page's row id (`/pages/{table}/rows/{id}`) stands for; nil when it is no
    /// row id of this table.
    public func key(forRowID id: String) -> RowKey? {
        schema.key(ofRowID: id).map(RowKey.init)
    }

    /// The row id a table page gives the row with `key`.
    public func rowID(of key: RowKey) -> String {
        schema.rowID(ofKey: key.values)
    }

    // MARK: Writing

    /// Inserts `rows` (values by column name; a column left out gets its default) in one
    /// transaction; returns the keys of the rows written, in order (an ignored row has none).
    public func insert(_ rows: [[String: SQLValue]], onConflict: InsertConflict = .fail, by author: WriteAuthor) async throws(TableWriteError) -> [RowKey] {
        do {
            return try await insertNamingRow(rows, onConflict: onConflict, by: author)
        } catch {
            throw error.error
        }
    }

    /// A refusal of a batch of rows: the writer's error, and the index of the row it is about
    /// (nil when it is about none: the write failed as a whole).
    struct BatchRefusal: Error {
        /// The index in the batch of the row refused.
        let row: Int?
        /// Why nothing was written.
        let error: TableWriteError
    }

    /// ``insert(_:onConflict:by:)``, saying which row was refused.
    func insertNamingRow(_ rows: [[String: SQLValue]], onConflict: InsertConflict = .fail, by author: WriteAuthor) async throws(BatchRefusal) -> [RowKey] {
        var resolving: [[(column: String, value: SQLValue)]] = []
        resolving.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            do {
                resolving.append(try resolve(row))
            } catch {
                throw BatchRefusal(row: index, error: error)
            }
        }
        let resolved = resolving
        let keys: [RowKey]
        do {
            keys = try await transact { session, entries in
                if let keys = try batched(resolved, onConflict: onConflict, by: author, in: session, entries: &entries) { return keys }
                var keys: [RowKey] = []
                let indexes = onConflict == .replace ? try uniqueIndexes(in: session) : []
                for (index, row) in resolved.enumerated() {
                    do {
                        if let written = try insertRow(row, onConflict: onConflict, upsertingOn: nil, uniqueIndexes: indexes, by: author, in: session, entries: &entries) {
                            keys.append(written.key)
                        }
                    } catch {
                        throw RefusedRow(index: index, error: naming(error, writing: row.map(\.column)))
                    }
                }
                return keys
            }
        } catch let refused as RefusedRow {
            throw BatchRefusal(row: refused.index, error: refusal(of: refused.error, by: author))
        } catch {
            throw BatchRefusal(row: nil, error: refusal(of: error, by: author))
        }
        logger.info("\(author.name) (\(author.channel.rawValue)) inserted \(keys.count) of \(rows.count) row\(rows.count == 1 ? "" : "s") into \(table)")
        return keys
    }

    /// `rows` written by `insertRows(_:columns:onConflict:upsertingOn:by:in:entries:)` when
    /// they are SQLite's and all give the same columns; nil when they are not, or when the
    /// database refused them: then nothing of them is left written (a savepoint), for the caller
    /// to write them a row at a time and name the row refused.
    private func batched(
        _ rows: [[(column: String, value: SQLValue)]], onConflict conflict: InsertConflict, by author: WriteAuthor, in session: any SQLSession, entries: inout [AuditEntry]
    ) throws -> [RowKey]? {
        let columns = rows.first?.map(\.column) ?? []
        guard schema.dialect == .sqlite, rows.count > 1, rows.allSatisfy({ $0.map(\.column) == columns }) else { return nil }
        let kept = entries.count
        try session.execute("SAVEPOINT tablepages_batch")
        do {
            let keys = try insertRows(rows.map { $0.map(\.value) }, columns: columns, onConflict: conflict, upsertingOn: nil, by: author, in: session, entries: &entries)
            try session.execute("RELEASE tablepages_batch")
            return keys
        } catch {
            entries.removeSubrange(kept...)
            try session.execute("ROLLBACK TO tablepages_batch")
            try session.execute("RELEASE tablepages_batch")
            return nil
        }
    }

    /// An error of the statement writing one row of a batch, carried out of the transaction.
    private struct RefusedRow: Error {
        let index: Int
        let error: any Error
    }

    /// Writes each of `rows` over the row with the same primary key (the columns it gives; the
    /// others kept), or inserts it when there is none, in one transaction; returns the rows' keys.
    /// Each row must give the primary key (a SQLite table without one: its `rowid`).
    public func upsert(_ rows: [[String: SQLValue]], by author: WriteAuthor) async throws(TableWriteError) -> [RowKey] {
        let identity = statements.identityColumns
        let resolved = try rows.map { row throws(TableWriteError) in
            let values = try resolve(row)
            if let missing = identity.first(where: { column in !values.contains { $0.column == column } }) {
                throw TableWriteError.invalid(column: missing, message: "an upsert needs each row's primary key")
            }
            return values
        }
        let keys = try await write(by: author) { session, entries in
            try resolved.map { row in
                guard let old = try existingRow(identifiedBy: row, in: session) else {
                    let written = try run(statements.insert(row.map(\.column), onConflict: .fail), row.map(\.value), writing: row.map(\.column), in: session)
                    guard let written else { throw TableWriteError.failed(message: "The database wrote no row.", retryable: false) }
                    entries.append(entry(author, written.key, .insert, old: nil, new: written.values))
                    return written.key
                }
                let changes = row.filter { !identity.contains($0.column) }
                guard !changes.isEmpty else { return old.key }
                let new = try updateRow(old.key, changes, in: session)
                entries.append(entry(author, new.key, .update, old: old.values, new: new.values))
                return new.key
            }
        }
        logger.info("\(author.name) (\(author.channel.rawValue)) upserted \(keys.count) row\(keys.count == 1 ? "" : "s") into \(table)")
        return keys
    }

    /// Sets the columns of `set` in the row with `key`; returns the row after. Given `seen`, the
    /// write is refused with ``TableWriteError/conflict(current:)`` unless the row still has those values.
    public func update(_ key: RowKey, set: [String: SQLValue], seen: [String: SQLValue]?, by author: WriteAuthor) async throws(TableWriteError) -> [String: SQLValue] {
        let changes = try resolve(set)
        let expected = try seen.map { seen throws(TableWriteError) in try resolve(seen) }
        let after = try await write(by: author) { session, entries in
            let old = try checkedRow(key, seen: expected, in: session)
            guard !changes.isEmpty else { return old.values }
            let new = try updateRow(old.key, changes, in: session)
            entries.append(entry(author, new.key, .update, old: old.values, new: new.values))
            return new.values
        }
        logger.info("\(author.name) (\(author.channel.rawValue)) updated row \(key) of \(table)")
        return after
    }

    /// Deletes the row with `key`, checked against `seen` as ``update(_:set:seen:by:)`` checks it.
    public func delete(_ key: RowKey, seen: [String: SQLValue]?, by author: WriteAuthor) async throws(TableWriteError) {
        let expected = try seen.map { seen throws(TableWriteError) in try resolve(seen) }
        try await write(by: author) { session, entries in
            let old = try checkedRow(key, seen: expected, in: session)
            try session.execute("DELETE FROM \(schema.quotedName) WHERE \(statements.matching(schema.key))", old.key.values)
            entries.append(entry(author, old.key, .delete, old: old.values, new: nil))
        }
        logger.info("\(author.name) (\(author.channel.rawValue)) deleted row \(key) of \(table)")
    }

    /// The row with `key` as it is now, by column; nil when there is none.
    public func row(_ key: RowKey) async throws -> [String: SQLValue]? {
        guard key.values.count == schema.key.count else { return nil }
        let (database, statements) = (database, statements)
        return try await OwnThread.run {
            try database.snapshot { session in try statements.row(matching: schema.key, key.values, locking: false, in: session)?.values }
        }
    }

    // MARK: Parts

    var statements: TableWriteStatements { TableWriteStatements(schema: schema) }

    /// Runs `body` in one transaction on a thread of its own, records the audit entries it made
    /// inside it, then tells the table's pages.
    @discardableResult
    func write<T: Sendable>(by author: WriteAuthor, _ body: @escaping @Sendable (any SQLSession, inout [AuditEntry]) throws -> T) async throws(TableWriteError) -> T {
        do {
            return try await transact(body)
        } catch {
            throw refusal(of: error, by: author)
        }
    }

    /// ``write(by:_:)`` with the error as `body` or the database threw it.
    private func transact<T: Sendable>(_ body: @escaping @Sendable (any SQLSession, inout [AuditEntry]) throws -> T) async throws -> T {
        let (database, audit) = (database, audit)
        let value = try await OwnThread.run { try Self.transaction(on: database, audit: audit, body) }
        onWrite?()
        return value
    }

    /// Runs `body` in one transaction of `database` and records the audit entries it made inside
    /// it, so that a write and its entries are kept or dropped together. Blocking: call it on a
    /// thread of its own.
    static func transaction<T: Sendable>(
        on database: any TableWriteDatabase, audit: (any AuditTrail)?, _ body: (any SQLSession, inout [AuditEntry]) throws -> T
    ) throws -> T {
        try database.transaction { session in
            var entries: [AuditEntry] = []
            let value = try body(session, &entries)
            if let audit, !entries.isEmpty { try audit.record(entries, writing: session) }
            return value
        }
    }

    /// `error`, which made a write by `author` fail, as the writer says it: the database's
    /// refusal naming its rule, or a failure that is logged.
    private func refusal(of error: any Error, by author: WriteAuthor) -> TableWriteError {
        if let error = error as? TableWriteError { return error }
        if let refusal = database.refusal(of: error, table: table) { return refusal }
        logger.error("a write to \(table) by \(author.name) failed, nothing written: \(String(reflecting: error))")
        return .failed(message: "The write failed; nothing was written.", retryable: false)
    }

    /// Runs a statement that writes `columns` and returns the row it wrote (nil when it wrote
    /// none); a refusal by the database names the column it is about, where it can be told.
    func run(_ sql: String, _ arguments: [SQLValue], writing columns: [String], in session: any SQLSession) throws -> TableWriteStatements.Row? {
        do {
            return try session.row(sql, arguments).map(statements.decode)
        } catch {
            throw naming(error, writing: columns)
        }
    }

    /// `error`, thrown by a statement writing `columns`: a refusal by the database that names no
    /// column, given the column it is most likely about; any other error as it is.
    func naming(_ error: any Error, writing columns: [String]) -> any Error {
        guard case .constraint(nil, let rule, let message)? = database.refusal(of: error, table: table) else { return error }
        return TableWriteError.constraint(column: column(refusedBy: rule, message: message, writing: columns), rule: rule, message: message)
    }

    /// The column a refusal that names none is most likely about: the one foreign key column
    /// written, the `INTEGER PRIMARY KEY` for a type error, the first written column the message
    /// mentions (a CHECK's expression or name), else the only column written (PostgreSQL names
    /// no column when it cannot read a value as its type: `invalid input syntax for type numeric`).
    private func column(refusedBy rule: TableWriteError.Rule, message: String, writing columns: [String]) -> String? {
        let only = columns.count == 1 ? columns[0] : nil
        switch rule {
        case .foreignKey:
            let written = columns.filter(foreignKeyColumns.contains)
            return written.count == 1 ? written[0] : nil
        case .type where schema.rowIDColumn.map(columns.contains) == true:
            return schema.rowIDColumn
        default:
            // PostgreSQL names a CHECK `table_column_check`: its parts count as words too.
            let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map { $0.lowercased() }
            let known = Set(words + words.flatMap { $0.split(separator: "_").map(String.init) })
            return columns.first { known.contains($0.lowercased()) } ?? only
        }
    }

    func updateRow(_ key: RowKey, _ changes: [(column: String, value: SQLValue)], in session: any SQLSession) throws -> TableWriteStatements.Row {
        let written = try run(statements.update(changes.map(\.column)), changes.map(\.value) + key.values, writing: changes.map(\.column), in: session)
        guard let written else { throw TableWriteError.notFound }
        return written
    }

    /// The row with `key`, locked until the transaction ends, when it still has the values of
    /// `seen`.
    func checkedRow(_ key: RowKey, seen: [(column: String, value: SQLValue)]?, in session: any SQLSession) throws -> TableWriteStatements.Row {
        guard key.values.count == schema.key.count,
              let row = try statements.row(matching: schema.key, key.values, locking: true, in: session) else {
            throw seen == nil ? TableWriteError.notFound : TableWriteError.conflict(current: nil)
        }
        if let seen, seen.contains(where: { row.values[$0.column] != $0.value }) {
            throw TableWriteError.conflict(current: row.values)
        }
        return row
    }

    /// The row that has the primary key `row` gives, if `row` gives all of it.
    func existingRow(identifiedBy row: [(column: String, value: SQLValue)], in session: any SQLSession) throws -> TableWriteStatements.Row? {
        let identity = statements.identityColumns
        let values = identity.compactMap { column in row.first { $0.column == column }?.value }
        guard values.count == identity.count else { return nil }
        return try statements.row(matching: identity, values, locking: true, in: session)
    }

    func entry(_ author: WriteAuthor, _ key: RowKey, _ action: AuditEntry.Action, old: [String: SQLValue]?, new: [String: SQLValue]?, undoes: String? = nil) -> AuditEntry {
        AuditEntry(time: Date(), author: author, table: table, key: key, action: action, old: old, new: new, undoes: undoes)
    }

    /// `values` by the columns' names in the schema's spelling, in the table's column order.
    /// - Throws: ``TableWriteError/invalid(column:message:)`` for a column the table lacks, one
    ///   named twice (SQLite's names are case-insensitive), or text holding a NUL.
    func resolve(_ values: [String: SQLValue]) throws(TableWriteError) -> [(column: String, value: SQLValue)] {
        var resolved: [String: SQLValue] = [:]
        for (name, value) in values {
            guard let column = statements.writableColumn(named: name) else {
                throw TableWriteError.invalid(column: name, message: "\(table) has no such column")
            }
            if value.isTextHoldingNUL {
                throw TableWriteError.invalid(column: column, message: "text cannot hold the character U+0000 (NUL); send it as bytes")
            }
            guard resolved.updateValue(value, forKey: column) == nil else {
                throw TableWriteError.invalid(column: name, message: "the column is given twice")
            }
        }
        return (schema.key + schema.columns).compactMap { column in resolved.removeValue(forKey: column).map { (column, $0) } }
    }
}
