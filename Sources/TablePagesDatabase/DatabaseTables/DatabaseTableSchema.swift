import TableStore

/// One served table as the database describes it: its name, its columns, and the key that
/// addresses its rows.
struct DatabaseTableSchema: Sendable, Equatable {
    /// The table's name, exactly as in the schema.
    let name: String
    /// The column names, in declaration order.
    let columns: [String]
    /// Each column's type affinity, by its name in the schema's spelling: how SQLite converts a
    /// value compared with it, and so how a filter binds its value (see ``DatabaseFilter``).
    var affinities: [String: ColumnAffinity] = [:]
    /// The columns that address a row, in order: the rowid (under a name no column shadows), or
    /// the primary key of a WITHOUT ROWID table. Their values are never NULL.
    let key: [String]
    /// Whether `key` is the rowid, so a row id is its decimal number.
    let keyIsRowID: Bool
    /// The order of the default variant when it is not the key: the single-column primary key of a
    /// rowid table whose key is not the rowid itself (e.g. `code TEXT PRIMARY KEY`).
    let defaultSort: String?
    /// The FTS5 table that indexes this table's text (its `content=` option names this table), for
    /// `_search`; nil when there is none.
    var fullTextTable: String? = nil
    /// The column of this table whose values are ``fullTextTable``'s rowids (its `content_rowid`,
    /// else the rowid under an alias no column shadows); nil when there is no full-text table.
    var fullTextRowID: String? = nil
    /// The `INTEGER PRIMARY KEY` column, which is the rowid itself: sorting by it ascending is the
    /// default order.
    var rowIDColumn: String? = nil
    /// Whether the table is a shadow table of a full-text index (``DatabaseFullTextIndex/shadowTables``),
    /// which the index of pages does not list.
    var isFullTextShadow = false

    /// Whether this is a view: read-only rows without a key, paged by their position in the
    /// view's order (see ``DatabaseTableReader``).
    var isView = false
    /// The columns whose values refer to other served tables' rows (foreign keys).
    var linkedColumns: [DatabaseLinkedColumn] = []
    /// The other served tables' columns whose values refer to this table's rows.
    var incomingLinks: [DatabaseIncomingLink] = []
    /// PostgreSQL views: the tables of the schema the view reads (through other views too),
    /// whose changes re-read its pages.
    var readTables: [String] = []

    /// The SQL the table's database speaks.
    var dialect: SQLDialect = .sqlite
    /// PostgreSQL: each column's type by its name, as `format_type` spells it without a modifier
    /// (`integer`, `character varying`, `timestamp with time zone`): what a value compared with
    /// the column is cast to. Empty for SQLite, whose columns take any value.
    var columnTypes: [String: String] = [:]
    /// PostgreSQL: the columns declared `NOT NULL`, whose order needs no `NULLS FIRST` or `NULLS
    /// LAST` (see ``nullOrder(of:descending:)``). Empty for SQLite, which needs neither.
    var notNullColumns: Set<String> = []
    /// PostgreSQL: the schema (namespace) the table is in, nil for SQLite.
    var namespace: String? = nil

    /// The table's name quoted for SQL, qualified by its schema in PostgreSQL, so that a
    /// `search_path` cannot point the name at another table.
    var quotedName: String {
        namespace.map { SQLIdentifier.quoted($0) + "." + SQLIdentifier.quoted(name) } ?? SQLIdentifier.quoted(name)
    }

    /// The placeholder for a value compared with `column` (see ``SQLDialect/placeholder(type:)``).
    func placeholder(for column: String) -> String {
        dialect.placeholder(type: columnTypes[column])
    }

    /// `column` as a query reads it: the column itself, or in PostgreSQL, for a type without an
    /// integer, real, text or blob value (numeric, boolean, dates, JSON, arrays…), its text, which
    /// a placeholder casts back to the same value.
    func selected(_ column: String) -> String {
        let quoted = SQLIdentifier.quoted(column)
        guard dialect == .postgresql, let type = columnTypes[column], !Self.postgresValueTypes.contains(type) else { return quoted }
        return quoted + "::text"
    }

    /// The columns of the primary key, as Datasette names them: the key's, or the column the rowid
    /// is an alias of, or a rowid table's single-column primary key. A page never hides them (`_nocol`).
    var primaryKeyColumns: [String] {
        let declared = [rowIDColumn, defaultSort].compactMap { $0 }
        return keyIsRowID ? declared : key
    }

    /// Where NULL goes in `column`'s order (``SQLDialect/nullOrder(descending:)``), or nothing for a
    /// column that holds no NULL (a key column, one declared `NOT NULL`). Why: PostgreSQL's btree
    /// index serves `ORDER BY c` and `ORDER BY c DESC` but not `c NULLS FIRST`, so spelling the NULL
    /// order of a key made every page a scan and sort of the rows after it (280 ms from the middle
    /// of a million rows, where the key's index answers in under 1 ms).
    func nullOrder(of column: String, descending: Bool) -> String {
        key.contains(column) || notNullColumns.contains(column) ? "" : dialect.nullOrder(descending: descending)
    }

    /// `column` in `ORDER BY`: in PostgreSQL qualified by the table, since an unqualified name
    /// there means the output column first, which for a column read as text (``selected(_:)``) would
    /// order by the text.
    func ordered(_ column: String) -> String {
        dialect == .postgresql ? quotedName + "." + SQLIdentifier.quoted(column) : SQLIdentifier.quoted(column)
    }

    /// PostgreSQL types read as they are (see ``selected(_:)``); the database decodes these.
    static let postgresValueTypes: Set<String> = [
        "smallint", "integer", "bigint", "real", "double precision", "bytea", "text", "character varying", "character", "name",
    ]

    /// The column named `name`, matched as SQLite matches names (ASCII case-insensitively), in the
    /// schema's spelling.
    func column(named name: String) -> String? {
        columns.first { $0 == name } ?? columns.first { $0.lowercased() == name.lowercased() }
    }

    /// Whether `column` is declared to hold numbers: an INTEGER or REAL affinity in SQLite (not
    /// NUMERIC, which dates and booleans get too), a number type in PostgreSQL.
    func holdsNumbers(_ column: String) -> Bool {
        if let type = columnTypes[column] { return Self.postgresNumberTypes.contains(type) }
        return [.integer, .real].contains(affinity(of: column))
    }

    /// PostgreSQL's number types, as `format_type` spells them.
    private static let postgresNumberTypes: Set<String> = ["smallint", "integer", "bigint", "real", "double precision", "numeric"]

    /// The affinity of the column named `column` (in the schema's spelling); BLOB when unknown.
    func affinity(of column: String) -> ColumnAffinity {
        affinities[column] ?? .blob
    }

    /// Every table of the database except SQLite's own (`sqlite_…`), by name; tables that cannot be
    /// read (a virtual table whose module is missing) are left out. Each knows the full-text table
    /// that indexes it, if any (see ``DatabaseFullTextIndex``).
    static func all(in db: any SQLSession) throws -> [DatabaseTableSchema] {
        let tables = try db.rows("""
            SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """).map { (name: $0[0].stringValue ?? "", sql: $0[1].stringValue) }
        let indexes = tables.compactMap { table in DatabaseFullTextIndex(name: table.name, sql: table.sql) }
        let shadows = indexes.reduce(into: Set<String>()) { $0.formUnion($1.shadowTables) }
        return tables.compactMap { table -> DatabaseTableSchema? in
            guard var schema = try? schema(of: table.name, in: db) else { return nil }
            if let index = DatabaseFullTextIndex.indexing(schema, among: indexes) {
                schema.fullTextTable = index.table
                schema.fullTextRowID = index.rowIDColumn
            }
            schema.isFullTextShadow = shadows.contains(schema.name.lowercased())
            return schema
        }
    }

    static func schema(of name: String, in db: any SQLSession) throws -> DatabaseTableSchema {
        // (GRDB's `columns(in:)` quotes names without doubling their quotes: see PragmaColumn.)
        // The primary key's columns come first, as Datasette shows them: a page links each row's
        // first value to the row's own URL, and that value is then the row's key.
        let info = try PragmaColumn.all(of: name, in: db, primaryKeyFirst: true)
        let columns = info.map(\.name)
        var affinities: [String: ColumnAffinity] = [:]
        for column in info { affinities[column.name] = ColumnAffinity(declaredType: column.type) }
        let primaryKey = info.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
        let lowercased = Set(columns.map { $0.lowercased() })
        // A column may be called `rowid`; SQLite then still answers to the other two aliases.
        if let alias = ["rowid", "_rowid_", "oid"].first(where: { !lowercased.contains($0) }),
           (try? db.execute("SELECT \(alias) FROM \(SQLIdentifier.quoted(name)) LIMIT 0")) != nil {
            // An `INTEGER PRIMARY KEY` is the rowid itself; another single-column key orders the page.
            let isRowIDAlias = primaryKey.count == 1
                && info.contains { $0.name == primaryKey[0] && $0.type.uppercased() == "INTEGER" }
            return DatabaseTableSchema(
                name: name, columns: columns, affinities: affinities, key: [alias], keyIsRowID: true,
                defaultSort: primaryKey.count == 1 && !isRowIDAlias ? primaryKey[0] : nil,
                rowIDColumn: isRowIDAlias ? primaryKey[0] : nil
            )
        }
        // WITHOUT ROWID: its primary key is NOT NULL and unique. A rowid table whose columns shadow
        // all three rowid aliases and that has no primary key has no way to address its rows.
        guard !primaryKey.isEmpty else { throw UnaddressableTable(name: name) }
        return DatabaseTableSchema(name: name, columns: columns, affinities: affinities, key: primaryKey, keyIsRowID: false, defaultSort: nil)
    }
}

/// A table whose rows no key can address: left out of the served pages.
struct UnaddressableTable: Error {
    let name: String
}
