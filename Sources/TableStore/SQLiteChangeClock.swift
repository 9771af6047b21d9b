import GRDB

/// A version clock in a SQLite database: one row, `tablepages_version`, from a random start, that triggers on the
/// watched tables advance with every row written, inside the writing transaction. A reader that
/// sees the same ``Store/dataVersion()`` before and after its reads saw exactly the data of that
/// version, so pages can name their states by it (see TablePages' `ChangeFeed(clock:)`): after a
/// restart, a client whose `Last-Event-ID` is the version the data still has is up to date.
///
///     migrator.registerMigration("change-clock") { db in
///         try SQLiteChangeClock.install(on: ["todo", "product"], in: db)
///     }
///
/// Any writer advances it, the `sqlite3` shell included, since the triggers are in the schema.
/// SQLite's triggers run once per row, so a transaction that writes ten rows advances the clock
/// by ten: versions only grow, but are not consecutive.
public enum SQLiteChangeClock {
    /// The clock's table.
    public static let tableName = "tablepages_version"

    /// Creates the clock (when missing) and a trigger for each kind of write on each of `tables`;
    /// run it in a migration, and again with the tables a later migration adds.
    public static func install(on tables: [String], in db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(tableName) (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)")
        // A random start (below 2⁴⁰): a database made again does not reuse the versions of the one
        // it replaced, so a client's Last-Event-ID from that one is not taken for a state of this one.
        try db.execute(sql: "INSERT OR IGNORE INTO \(tableName) (id, version) VALUES (1, abs(random() % 1099511627776))")
        for table in tables {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                let trigger = "tablepages_version_\(table)_\(event.lowercased())"
                try db.execute(sql: """
                    CREATE TRIGGER IF NOT EXISTS \(trigger.quotedDatabaseIdentifier) AFTER \(event) ON \(table.quotedDatabaseIdentifier)
                    BEGIN UPDATE \(tableName) SET version = version + 1 WHERE id = 1; END
                    """)
            }
        }
    }

    /// The clock's value in `db`, nil when the database has no clock.
    public static func version(in db: Database) throws -> Int? {
        guard try db.tableExists(tableName) else { return nil }
        return try Int.fetchOne(db, sql: "SELECT version FROM \(tableName) WHERE id = 1")
    }
}
