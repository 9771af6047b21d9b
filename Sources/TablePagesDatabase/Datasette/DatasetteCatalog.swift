import Synchronization
import TableStore

/// The tables Datasette's URLs answer for, as read from the database: read when the server
/// starts, and again after each schema change the served tables follow (``DatabaseTables``), so
/// a table made through `/-/create` answers at `/{database}/{table}.json` (and takes writes) at
/// once, and one made by another process as soon as its page under `/pages/` does.
final class DatasetteCatalog: Sendable {
    private let store: Store
    private let labels: DatabaseLabelColumns
    private let tables: Mutex<[String: DatasetteTable]>

    /// Reads `store`'s tables. Blocking: call it where a thread may block.
    init(store: Store, labels: DatabaseLabelColumns) throws {
        self.store = store
        self.labels = labels
        self.tables = Mutex(try Self.read(store, labels: labels))
    }

    /// The table or view named `name`, as last read.
    func table(named name: String) -> DatasetteTable? {
        tables.withLock { $0[name] }
    }

    /// Reads the tables again (after a schema change). Blocking.
    func reload() throws {
        let read = try Self.read(store, labels: labels)
        tables.withLock { $0 = read }
    }

    private static func read(_ store: Store, labels: DatabaseLabelColumns) throws -> [String: DatasetteTable] {
        let tables = try store.read { db in try DatabaseRelations.linkedSchemas(in: db, labels: labels).map { try DatasetteTable.read($0, in: db) } }
        return Dictionary(tables.map { ($0.schema.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
