import Logging
import Synchronization
import TableStore

/// The ``TableWriter`` of each writable table of a database served with `--writable`, and why
/// each other table is read-only (a view; a PostgreSQL table without a primary key).
///
///     let writer = try writers.writer(forPage: pageName)   // 403 for a view, 404 for no table
///
/// Copies share their writers: the writers of a table created or altered while the site runs
/// (``DatabaseTables`` follows the schema) are there for every copy.
public struct TableWriters: Sendable {
    private let shared: Shared
    /// Where the writers keep their writes; nil for none (a database served read-only).
    public let audit: (any AuditTrail)?

    private struct State {
        var byTable: [String: TableWriter] = [:]
        var byPage: [String: String] = [:]
        var readOnlyReasons: [String: String] = [:]

        /// Adds `writers` and the `readOnly` tables, in place of any of the same name (a writer
        /// wins over a reason given for its table).
        mutating func add(_ writers: [TableWriter], readOnly: [String: String]) {
            for (table, reason) in readOnly {
                byTable[table] = nil
                readOnlyReasons[table] = reason
            }
            for writer in writers {
                byTable[writer.table] = writer
                readOnlyReasons[writer.table] = nil
            }
            for table in writers.map(\.table) + readOnly.keys { byPage[DatabaseTablePages.pageName(ofTable: table)] = table }
        }
    }

    private final class Shared: Sendable {
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
    }

    init(writers: [TableWriter], readOnly: [String: String], audit: (any AuditTrail)? = nil) {
        self.audit = audit
        var state = State()
        // The first of a name wins, as it did when these were made at once.
        var seen: Set<String> = []
        state.add(writers.filter { seen.insert($0.table).inserted }, readOnly: readOnly)
        shared = Shared(state)
    }

    /// The tables that can be written, by name.
    public var writableTables: [String] { shared.state.withLock { $0.byTable.keys.sorted() } }

    /// The tables that cannot, each with the reason, by name.
    public var readOnlyTables: [(table: String, reason: String)] {
        shared.state.withLock { $0.readOnlyReasons.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// The writer of `table`.
    /// - Throws: ``TableWriteError/readOnly(reason:)`` for a table that cannot be written,
    ///   ``TableWriteError/notFound`` for no served table of that name.
    public func writer(forTable table: String) throws(TableWriteError) -> TableWriter {
        let (writer, reason) = shared.state.withLock { ($0.byTable[table], $0.readOnlyReasons[table]) }
        if let writer { return writer }
        if let reason { throw .readOnly(reason: reason) }
        throw .notFound
    }

    /// The writer of the table served as the page named `page` (``DatabaseTablePages/pageName(ofTable:)``).
    public func writer(forPage page: String) throws(TableWriteError) -> TableWriter {
        guard let table = shared.state.withLock({ $0.byPage[page] }) else { throw .notFound }
        return try writer(forTable: table)
    }

    /// Adds the writers and read-only tables of `other` (those of tables created or altered
    /// since these were made), in place of any of the same name, for every copy of these.
    func add(_ other: TableWriters) {
        let (writers, readOnly) = other.shared.state.withLock { (Array($0.byTable.values), $0.readOnlyReasons) }
        shared.state.withLock { $0.add(writers, readOnly: readOnly) }
    }

    /// Removes the writers and read-only reasons of `tables` (dropped while the site runs), for every copy of these.
    func remove(_ tables: some Sequence<String>) {
        shared.state.withLock { state in
            for table in tables {
                state.byTable[table] = nil
                state.readOnlyReasons[table] = nil
                let page = DatabaseTablePages.pageName(ofTable: table)
                if state.byPage[page] == table { state.byPage[page] = nil }
            }
        }
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
