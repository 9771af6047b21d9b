import GRDB
import Logging

extension Store {
    /// Opens (creating it if needed) a database the server owns, as ``open(path:migrator:logger:)``
    /// does, and brings its schema up to date with `migrations`, SQL run in order, each once,
    /// remembered by its name, in a transaction of its own: add a migration for each change of
    /// schema, and never edit one that has run. Every table then has the version clock
    /// (``SQLiteChangeClock``), so pages name their states alike across restarts, whoever writes,
    /// the `sqlite3` shell included.
    ///
    ///     let store = try Store.open(path: "reading.sqlite", migrations: [
    ///         "create book": "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL)",
    ///         "add author": "ALTER TABLE book ADD COLUMN author TEXT NOT NULL DEFAULT ''",
    ///     ])
    public static func open(path: String, migrations: KeyValuePairs<String, String>, logger: Logger = Logger(label: "TableStore")) throws -> Store {
        var migrator = DatabaseMigrator()
        for (name, sql) in migrations {
            migrator.registerMigration(name) { db in try db.execute(sql: sql) }
        }
        let store = try open(path: path, migrator: migrator, logger: logger)
        try store.write { db in try SQLiteChangeClock.install(on: clockedTables(in: db), in: db) }
        return store
    }

    /// The tables a clock's triggers can watch: not SQLite's own, the clock's or the migrations'
    /// record, not a virtual table (no trigger can be put on one) or the tables that keep its data.
    private static func clockedTables(in db: Database) throws -> [String] {
        let tables = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table'")
        let virtual = tables.filter { ($0["sql"] as String?)?.uppercased().hasPrefix("CREATE VIRTUAL") == true }.map { $0["name"] as String }
        return tables.map { $0["name"] as String }.filter { name in
            !name.hasPrefix("sqlite_") && name != SQLiteChangeClock.tableName && name != "grdb_migrations"
                && !virtual.contains { name == $0 || name.hasPrefix($0 + "_") }
        }
    }
}
