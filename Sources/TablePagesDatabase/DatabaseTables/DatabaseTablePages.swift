import Logging
import TableKit
import TablePages
import TableStore

/// Serves every table of a SQLite database as a page: `/pages/{table}` shows the table's rows, in
/// key order (the rowid, or the primary key) unless the query says otherwise:
///
/// - `?sort=col` / `?sort=-col` orders by a column (the key breaks ties), `?group=col` makes one
///   section per value of `col` (at most `DatabaseTableReader.maxSections`), `?col=value` keeps the
///   rows whose `col` equals `value`; several filters must all hold. An unknown column is a 400.
/// - `?limit=N` (1…1000, default 100) sets the rows per section in one response; the `next` link of
///   a section pages on by keyset (`/pages/{table}/sections/{section}?after={row}&limit=N`), so a
///   page deep in a million rows is as fast as the first.
/// - Row ids are the rowid (`42`); in a WITHOUT ROWID table they encode the primary key (see
///   `DatabaseValueCoding`). Section ids are `all`, or the encoded group value.
/// - Each row is a `record` cell: HTML shows every column (NULL marked, long text cut, a blob as
///   its size); JSON `fields` carry the values themselves (numbers, `null`, whole text, base64 blobs).
///
/// The live table of each variant holds only its first rows (1,000, or 100 per group) and the
/// count of the rest, so a million-row table opens at once: the page ends with a `next` link whose
/// `data-remaining` sizes the placeholder the client scrolls through. When the database changes —
/// through this server or any other process — every open variant re-reads its first rows and its
/// counts and publishes the rows that differ, and each section whose count changed as a
/// `section-next` patch op (a row written past the window changes only that).
///
///     let store = try Store.openExisting(path: "shop.sqlite", writable: false)
///     var pages = PageRegistry()
///     try DatabaseTablePages.register(store: store, in: &pages)
///     store.startWatching()
///
/// or, in one call, `try DatabaseTablePages.register(databaseAt: "shop.sqlite", writable: false, in: &pages)`.
///
/// Tables are read when registered; served as a ``DatabaseTables`` feature, tables created or
/// altered while the site runs get their pages at once (see there). SQLite's own
/// tables are not served. Views are served read-only, paged by position (a view has no key; see
/// `DatabaseTableReader+Views`), and re-read on every change of the database, as every page is.
/// A column with a foreign key shows the label of the row it refers to, linked to it, and a row's
/// own page counts the rows of other tables that refer to it.
public enum DatabaseTablePages {
    /// Registers one page per table of `store`'s SQLite database (a ``/TableStore/Store``, or any
    /// ``/TableStore/SQLStore`` that speaks SQLite), named after the table, each re-read after
    /// every change the store reports; returns the names of the tables, in registration order (each
    /// page is named ``pageName(ofTable:)``). `tables`
    /// (a configuration file's) sets a table's title, description, label column, or hides it from
    /// the index. With `sqlPage` (the SQL page's path, ``QueryPages/path``, when it is on), each
    /// page links its rows' query there ("View and edit SQL").
    /// - Throws: the store's errors reading SQLite's schema (a PostgreSQL store has none:
    ///   `PostgresTablePages.register` serves its tables).
    @discardableResult
    public static func register(
        store: any SQLStore, in registry: inout PageRegistry, tables: [String: TableConfiguration] = [:], sqlPage: String? = nil
    ) throws -> [String] {
        try registerSQLite(store: store, in: &registry, tables: tables, sqlPage: sqlPage) { _ in nil }.schemas.map(\.name)
    }

    /// Registers the pages of a SQLite database opened writable (`--writable`), as
    /// ``register(store:in:tables:sqlPage:)`` does, and returns a ``TableWriter`` for each table
    /// but views (and full-text indexes' own tables), each keeping its writes in `audit`. Those
    /// tables' pages let signed-in actors and tokens allowed to write them (``/TablePages/PageAccess/signedInWrites``)
    /// write; the others stay read-only to everyone. A write through a writer reaches every open
    /// page at once (the store checks for changes when it commits).
    /// - Throws: the store's errors reading SQLite's schema.
    public static func registerWritable(
        store: Store, in registry: inout PageRegistry, tables: [String: TableConfiguration] = [:], sqlPage: String? = nil,
        audit: (any AuditTrail)?, logger: Logger = Logger(label: "TablePages")
    ) throws -> TableWriters {
        var writers: TableWriters?
        _ = try registerSQLite(store: store, in: &registry, tables: tables, sqlPage: sqlPage) { schemas in
            let made = TableWriters.of(schemas, database: store, audit: audit, logger: logger)
            writers = made
            return made
        }
        return writers ?? TableWriters(writers: [], readOnly: [:])
    }

    /// Registers a page per table and view of a SQLite database, writable where `writers` (made
    /// from the schemas, nil for none) has a writer; returns the schemas, and the feed every page
    /// re-reads on (notified at each change the store reports).
    static func registerSQLite(
        store: any SQLStore, in registry: inout PageRegistry, tables: [String: TableConfiguration], sqlPage: String?,
        writers: ([DatabaseTableSchema]) -> TableWriters?
    ) throws -> (schemas: [DatabaseTableSchema], feed: ChangeFeed) {
        let labels = DatabaseLabelColumns(overrides: tables.compactMapValues(\.labelColumn))
        let schemas = try store.snapshot { db in try DatabaseRelations.linkedSchemas(in: db, labels: labels) }
        let made = writers(schemas)
        let feed = ChangeFeed()
        store.onChange { feed.notify() }
        for page in pages(for: schemas, database: store, feed: feed, tables: tables, sqlPage: sqlPage, writers: made) {
            registry.register(page)
        }
        return (schemas, feed)
    }

    /// The pages of `schemas`' tables and views of a SQLite database, each re-read when `feed` is
    /// notified, writable where `writers` (nil for none) has a writer.
    static func pages(
        for schemas: [DatabaseTableSchema], database: any SQLReader, feed: ChangeFeed, tables: [String: TableConfiguration], sqlPage: String?,
        writers: TableWriters?
    ) -> [PageDefinition] {
        let writable = Set(writers?.writableTables ?? [])
        let reasons = Dictionary((writers?.readOnlyTables ?? []).map { ($0.table, $0.reason) }, uniquingKeysWith: { first, _ in first })
        return schemas.map { schema in
            page(
                for: schema, database: database, feed: feed, configuration: tables[schema.name] ?? TableConfiguration(), sqlPage: sqlPage,
                writable: writable.contains(schema.name), readOnlyReason: reasons[schema.name]
            )
        }
    }

    /// Registers one page per table and view of the PostgreSQL schema `namespace` that `database`
    /// reaches, with the same queries, routes and cells as a SQLite table's, in PostgreSQL's dialect,
    /// and `tables` (a configuration file's) and `sqlPage` as ``register(store:in:tables:sqlPage:)`` takes them.
    /// Returns each served table with the feed its pages re-read on (notify it when the table
    /// changes); the feeds of other pages that read the table too (`dependents`: a table whose
    /// values show its rows' labels, a view that reads it), to notify with it; the tables left
    /// out because they have no primary key (keyset paging needs one); and the tables' writers.
    ///
    /// With `writing` (the database opened for writes, `--writable`), every table gets a
    /// ``TableWriter`` through it, keeping its writes in `audit`, whose writes notify the table's
    /// feeds at once (other instances hear of them as of any write); its pages let actors allowed
    /// to write them write. Views, and tables without a primary key, are read-only.
    /// - Throws: `database`'s errors reading the catalog.
    package static func registerPostgres(
        database: any SQLReader, namespace: String, in registry: inout PageRegistry, tables configured: [String: TableConfiguration] = [:], sqlPage: String? = nil,
        writing: (any TableWriteDatabase)? = nil, audit: (any AuditTrail)? = nil, logger: Logger = Logger(label: "TablePages")
    ) throws -> (served: [(table: String, feed: ChangeFeed)], withoutKey: [String], dependents: [(table: String, feed: ChangeFeed)], writers: TableWriters) {
        let found = try database.snapshot { runner in
            let tables = try DatabaseTableSchema.allPostgres(in: namespace, runner: runner)
            let keys = try DatabaseForeignKey.allPostgres(in: namespace, runner: runner)
            let views = try DatabaseTableSchema.postgresViews(in: namespace, runner: runner)
            let labels = DatabaseLabelColumns(overrides: configured.compactMapValues(\.labelColumn))
            return (schemas: DatabaseRelations.linking(tables.tables + views, by: keys, labels: labels), unaddressable: tables.unaddressable)
        }
        let feeds = found.schemas.map { _ in ChangeFeed() }
        var served: [(table: String, feed: ChangeFeed)] = []
        var dependents: [(table: String, feed: ChangeFeed)] = []
        for (schema, feed) in zip(found.schemas, feeds) {
            if !schema.isView { served.append((schema.name, feed)) }
            for table in Set(schema.linkedColumns.map(\.table) + schema.readTables).sorted() where table != schema.name {
                dependents.append((table, feed))
            }
        }
        let writers = writing.map { writing in
            TableWriters.of(found.schemas, withoutKey: found.unaddressable, database: writing, audit: audit, onWrite: { table in
                let told = (served + dependents).filter { $0.table == table }.map(\.feed)
                return { for feed in told { feed.notify() } }
            }, logger: logger)
        } ?? TableWriters.readOnly(found.schemas.map(\.name) + found.unaddressable)
        let writable = Set(writers.writableTables)
        // Served writable, a table that cannot be edited says why on its page.
        let reasons = writing == nil ? [:] : Dictionary(writers.readOnlyTables.map { ($0.table, $0.reason) }, uniquingKeysWith: { first, _ in first })
        for (schema, feed) in zip(found.schemas, feeds) {
            registry.register(page(
                for: schema, database: database, feed: feed, configuration: configured[schema.name] ?? TableConfiguration(), sqlPage: sqlPage,
                writable: writable.contains(schema.name), readOnlyReason: reasons[schema.name]
            ))
        }
        return (served, found.unaddressable, dependents, writers)
    }

    /// Opens the SQLite file at `path` (read-only unless `writable`), registers a page per table,
    /// and starts watching the file, so writes by other processes reach open pages; returns the
    /// store (stop it with `stopWatching()`).
    ///
    ///     try DatabaseTablePages.register(databaseAt: "shop.sqlite", writable: false, in: &pages)
    /// - Throws: ``/TableStore/Store/OpenError`` when the file is missing or not a SQLite database.
    @discardableResult
    public static func register(databaseAt path: String, writable: Bool, in registry: inout PageRegistry, logger: Logger = Logger(label: "TablePages")) throws -> Store {
        let store = try Store.openExisting(path: path, writable: writable, logger: logger)
        try register(store: store, in: &registry)
        store.startWatching()
        return store
    }

    /// The table's rows for the index of pages, or nil when counting them ran past the query time
    /// limit (a table too big to count at once is "many").
    private static func rowCount(of schema: DatabaseTableSchema, database: any SQLReader) throws -> Int? {
        do {
            return try database.snapshot { try $0.count("SELECT count(*) FROM \(schema.quotedName)", []) }
        } catch is QueryTimeLimitExceeded {
            return nil
        }
    }

    private static func page(
        for schema: DatabaseTableSchema, database: any SQLReader, feed: ChangeFeed, configuration: TableConfiguration = TableConfiguration(), sqlPage: String? = nil,
        writable: Bool = false, readOnlyReason: String? = nil
    ) -> PageDefinition {
        // Under its title, with the table's own description: why a table of a writable database
        // (a view) offers no editing.
        let description = [configuration.description, readOnlyReason].compactMap { $0 }.joined(separator: " ")
        let columns = schema.columns.prefix(8).joined(separator: ", ") + (schema.columns.count > 8 ? ", \u{2026}" : "")
        var definition = PageDefinition(
            name: pageName(ofTable: schema.name),
            title: configuration.title ?? schema.name,
            summary: configuration.description ?? "\(schema.isView ? "View" : "Table") with \(schema.columns.count) column\(schema.columns.count == 1 ? "" : "s"): \(columns)",
            resolveVariantItems: { query throws(PageDefinition.VariantError) in
                try DatabaseTableQuery.resolve(try DatabaseFilterForm.expanded(query), schema: schema)
            },
            cellKinds: [DatabaseRecordCell.kind(linking: schema.linkedColumns), DatabaseTableHeader.kind],
            // A table without a writer (a view, a database served read-only) is read-only to
            // everyone, and nobody is asked to sign in for it.
            access: writable ? .signedInWrites : .everyoneReads,
            isListed: !schema.isFullTextShadow && !configuration.hidden,
            countRows: { try rowCount(of: schema, database: database) }
        ) { variant in
            let reader = DatabaseTableReader(database: database, schema: schema, query: DatabaseTableQuery(variant: variant.parameters, schema: schema))
            if let row = reader.query.row {
                return try DatabaseTableSource.following(RowID(row), reader: reader)
            }
            return try DatabaseTableSource.reading(reader, tableDescription: description.isEmpty ? nil : description, sqlPage: sqlPage)
        }
        definition.changes = feed
        definition.rowVariantParameter = DatabaseTableQuery.rowParameter
        definition.showsBreadcrumbs = true
        if writable {
            // The forms DatabaseTableEditing serves, linked for viewers who may write.
            definition.editForms = PageEditForms(
                insertPath: PageContract.pagePath(named: definition.name) + DatabaseTableEditing.insertSuffix, rowSuffix: DatabaseTableEditing.editSuffix
            )
        }
        return definition
    }
}
