import Logging
import TableStore

/// The ``TableWriter`` of each writable table of a database served with `--writable`, and why
/// each other table is read-only (a view; a PostgreSQL table without a primary key).
///
///     let writer = try writers.writer(forPage: pageName)   // 403 for a view, 404 for no table
public struct TableWriters: Sendable {
    private let byTable: [String: TableWriter]
    private let byPage: [String: String]
    private let readOnlyReasons: [String: String]
    /// Where the writers keep their writes; nil for none (a database served read-only).
    public let audit: (any AuditTrail)?

    init(writers: [TableWriter], readOnly: [String: String], audit: (any AuditTrail)? = nil) {
        self.audit = audit
        byTable = Dictionary(writers.map { ($0.table, $0) }, uniquingKeysWith: { first, _ in first })
        byPage = Dictionary((writers.map(\.table) + readOnly.keys).map { (DatabaseTablePages.pageName(ofTable: $0), $0) }, uniquingKeysWith: { first, _ in first })
        readOnlyReasons = readOnly
    }

    /// The tables that can be written, by name.
    public var writableTables: [String] { byTable.keys.sorted() }

    /// The tables that cannot, each with the reason, by name.
    public var readOnlyTables: [(table: String, reason: String)] {
        readOnlyReasons.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The writer of `table`.
    /// - Throws: ``TableWriteError/readOnly(reason:)`` for a table that cannot be written,
    ///   ``TableWriteError/notFound`` for no served table of that name.
    public func writer(forTable table: String) throws(TableWriteError) -> TableWriter {
        if let writer = byTable[table] { return writer }
        if let reason = readOnlyReasons[table] { throw .readOnly(reason: reason) }
        throw .notFound
    }

    /// The writer of the table served as the page named `page` (``DatabaseTablePages/pageName(ofTable:)``).
    public func writer(forPage page: String) throws(TableWriteError) -> TableWriter {
        guard let table = byPage[page] else { throw .notFound }
        return try writer(forTable: table)
    }

    /// The writers of `schemas`' tables on `database`; views and full-text indexes' own tables
    /// are read-only, as is every table named in `withoutKey`.
    static func of(
        _ schemas: [DatabaseTableSchema], withoutKey: [String] = [], database: any TableWriteDatabase, audit: (any AuditTrail)?,
        onWrite: (String) -> (@Sendable () -> Void)? = { _ in nil }, logger: Logger
    ) -> TableWriters {
        var writers: [TableWriter] = []
        var readOnly: [String: String] = [:]
        for table in withoutKey {
            readOnly[table] = "The table \u{201C}\(table)\u{201D} has no primary key, so its rows cannot be told apart to edit them: it is read-only."
        }
        for schema in schemas {
            if schema.isView {
                readOnly[schema.name] = "\u{201C}\(schema.name)\u{201D} is a view: its rows are computed from other tables and are read-only."
            } else if schema.isFullTextShadow {
                readOnly[schema.name] = "\u{201C}\(schema.name)\u{201D} belongs to a full-text index, which SQLite keeps itself: it is read-only."
            } else {
                writers.append(TableWriter(
                    schema: schema, database: database, audit: audit, foreignKeyColumns: schema.linkedColumns.map(\.column),
                    onWrite: onWrite(schema.name), logger: logger
                ))
            }
        }
        return TableWriters(writers: writers, readOnly: readOnly, audit: audit)
    }

    /// Undoes the last write `author`'s actor made (through either channel) that is not undone
    /// yet, as a checked write by `author` (see ``TableWriter``): 409 with the row now when
    /// someone changed one of its rows since. Undoing again undoes the write before it. Returns
    /// the table and the keys of the rows the undo wrote.
    /// - Throws: ``TableWriteError/nothingToUndo`` when there is none; the errors of a write.
    public func undoLast(by author: WriteAuthor) async throws(TableWriteError) -> (table: String, keys: [RowKey]) {
        let records = try await lastUndoableWrite(by: author)
        let table = records[0].entry.table
        return (table, try await writer(forTable: table).undo(records, by: author))
    }

    /// What ``undoLast(by:)`` would undo: the entries of `author`'s actor's last write not undone
    /// yet (never empty).
    /// - Throws: ``TableWriteError/nothingToUndo`` when there is none.
    func lastUndoableWrite(by author: WriteAuthor) async throws(TableWriteError) -> [AuditRecord] {
        guard let audit else { throw .nothingToUndo }
        let records: [AuditRecord]
        do {
            records = try await OwnThread.run { try audit.lastUndoableWrite(by: author.actorID) }
        } catch {
            throw .failed(message: "The audit trail could not be read; nothing was undone.", retryable: false)
        }
        guard !records.isEmpty else { throw .nothingToUndo }
        return records
    }
}

extension TableWriters {
    /// No writers: every one of `tables` is read-only, for a database served without `--writable`.
    public static func readOnly(_ tables: [String]) -> TableWriters {
        let reason = "This database is served read-only: its tables can be edited only when TablePages is started with --writable."
        return TableWriters(writers: [], readOnly: Dictionary(tables.map { ($0, reason) }, uniquingKeysWith: { first, _ in first }))
    }
}
