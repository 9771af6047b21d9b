import GRDB
import TableStore

/// The SQLite schema of the example pages (``ExamplePostgresSchema`` is PostgreSQL's) and the
/// data they start with.
///
///     let store = try ExampleDatabase.open(at: "tablepages.sqlite")
enum ExampleDatabase {
    /// Opens (creating it when missing) the examples' database, brings its schema up to date and
    /// seeds it once: a database that already holds data is left as it is.
    static func open(at path: String) throws -> Store {
        let store = try Store.open(path: path, migrator: migrator)
        try store.transaction { db in try ExampleSeed.seedIfEmpty(db) }
        return store
    }

    /// The examples' tables, whose writes advance the change clock.
    static let tables = ["product", "todo", "user", "pet", "galleryImage", "destination", "review"]

    /// One migration per released schema; never edit a migration once shipped, add another.
    /// The names are camel case as in PostgreSQL's schema, which folds them to lower case.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "product") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull()
                table.column("category", .text).notNull()
                table.column("priceCents", .integer).notNull()
                table.column("stock", .integer).notNull()
                table.column("summary", .text).notNull()
            }
            try db.create(table: "todo") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull()
                table.column("isDone", .boolean).notNull().defaults(to: false)
                table.column("position", .integer).notNull()
            }
            try db.create(table: "user") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull()
                table.column("email", .text).notNull()
                table.column("city", .text).notNull()
            }
            try db.create(table: "pet") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull()
                table.column("species", .text).notNull()
                table.column("breed", .text).notNull()
                table.column("weightKilograms", .double).notNull()
                table.column("avatar", .text).notNull()
                table.belongsTo("user", onDelete: .cascade).notNull()
            }
            try db.create(table: "galleryImage") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull()
                table.column("file", .text).notNull()
                table.column("photographer", .text).notNull()
            }
            try db.create(table: "destination") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull()
                table.column("location", .text).notNull()
                table.column("summary", .text).notNull()
                table.column("photo", .text).notNull()
                table.column("map", .text).notNull()
                table.column("latitude", .double).notNull()
                table.column("longitude", .double).notNull()
                table.column("address", .text).notNull()
                table.column("website", .text).notNull()
                table.column("phone", .text).notNull()
                table.column("rating", .double).notNull()
                table.column("shownReviews", .integer).notNull()
            }
            try db.create(table: "review") { table in
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("destination", onDelete: .cascade).notNull()
                table.column("author", .text).notNull()
                table.column("stars", .integer).notNull()
                table.column("text", .text).notNull()
                table.column("position", .integer).notNull()
            }
        }
        // Per-person to-do lists (the `mine` page) share the table; the shared list's items have no owner.
        migrator.registerMigration("todo-owner") { db in
            try db.alter(table: "todo") { table in
                table.add(column: "owner", .text)
            }
            try db.create(index: "todo_owner", on: "todo", columns: ["owner"])
        }
        // Pages name their states by this clock, so a client is up to date after a restart.
        migrator.registerMigration("change-clock") { db in
            try SQLiteChangeClock.install(on: tables, in: db)
        }
        return migrator
    }
}
