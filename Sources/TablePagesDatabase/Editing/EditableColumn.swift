import TableStore

/// One column of a table as its edit and insert forms show it: its declared type, whether it
/// takes NULL, its default, and the editor that fits it (``Editor``), read from the schema.
struct EditableColumn: Sendable, Hashable {
    /// How a value of the column is typed in.
    enum Editor: Sendable, Hashable {
        /// One line of text.
        case text
        /// A whole number.
        case integer
        /// A number with a fraction.
        case real
        /// A calendar date, written `YYYY-MM-DD`.
        case date
        /// A date and time as text (`YYYY-MM-DD HH:MM:SS`), kept as typed.
        case dateTime
        /// True or false (SQLite: 1 or 0).
        case boolean
        /// Bytes, which a form does not edit.
        case blob
    }

    /// The column's name.
    let name: String
    /// Its declared type as the schema spells it (empty when it has none).
    let declaredType: String
    /// Whether it refuses NULL.
    let isNotNull: Bool
    /// Its default as the schema writes it (`0`, `'open'`, `CURRENT_TIMESTAMP`), nil for none.
    let defaultSQL: String?
    /// Whether the database fills it in when an insert leaves it out: a rowid alias, or a default.
    let fillsItself: Bool
    /// The editor that fits its type.
    let editor: Editor
    /// Whether its values are PostgreSQL's booleans (true/false) rather than SQLite's 1/0.
    let isPostgresBoolean: Bool

    /// What the insert form says beside the name: the type, NOT NULL, the default.
    var hint: String {
        var parts: [String] = [declaredType.isEmpty ? "any type" : declaredType]
        if isNotNull { parts.append("NOT NULL") }
        if let defaultSQL { parts.append("default " + defaultSQL) } else if fillsItself { parts.append("filled in by the database") }
        return parts.joined(separator: ", ")
    }

    /// The editor for a column of `declaredType` (SQLite's type name, or PostgreSQL's as
    /// `format_type` spells it).
    static func editor(forType declaredType: String, postgres: Bool) -> Editor {
        let type = declaredType.uppercased()
        if postgres {
            // An array (`boolean[]`) is typed as PostgreSQL writes one: `{true,false}`.
            switch declaredType {
            case "boolean": return .boolean
            case "smallint", "integer", "bigint": return .integer
            case "real", "double precision", "numeric": return .real
            case "date": return .date
            case "bytea": return .blob
            default: return type.hasPrefix("TIMESTAMP") && !type.hasSuffix("[]") ? .dateTime : .text
            }
        }
        if type.contains("BOOL") { return .boolean }
        if type.contains("DATETIME") || type.contains("TIMESTAMP") { return .dateTime }
        if type.contains("DATE") { return .date }
        switch ColumnAffinity(declaredType: declaredType) {
        case .integer: return .integer
        case .real: return .real
        case .text, .numeric: return .text
        // No type at all takes anything: text is what a person types.
        case .blob: return type.contains("BLOB") ? .blob : .text
        }
    }

    /// The columns of `schema`'s table, in its column order, as SQLite's `table_xinfo` describes them.
    static func sqlite(_ schema: DatabaseTableSchema, in db: any SQLSession) throws -> [EditableColumn] {
        var found: [String: EditableColumn] = [:]
        try db.forEachRow(#"SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_xinfo(?) WHERE hidden <> 1"#, [.text(schema.name)]) { row in
            let name = row[0].stringValue ?? ""
            let type = row[1].stringValue ?? ""
            let defaultSQL = row[3].stringValue
            let isRowID = schema.rowIDColumn == name
            found[name] = EditableColumn(
                name: name, declaredType: type, isNotNull: row[2].intValue == 1 || isRowID, defaultSQL: defaultSQL,
                fillsItself: isRowID || defaultSQL != nil, editor: editor(forType: type, postgres: false), isPostgresBoolean: false
            )
        }
        return schema.columns.compactMap { found[$0] }
    }

    /// The columns of `schema`'s PostgreSQL table, with their defaults from the catalog. An
    /// identity column (`GENERATED … AS IDENTITY`) or a generated one has no default there, yet
    /// the database fills it in.
    static func postgres(_ schema: DatabaseTableSchema, in db: any SQLSession) throws -> [EditableColumn] {
        var defaults: [String: String] = [:]
        var filled: Set<String> = []
        try db.forEachRow("""
            SELECT a.attname, pg_get_expr(d.adbin, d.adrelid), a.attidentity <> '' OR a.attgenerated <> ''
            FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE a.attrelid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped
            """, [.text(schema.quotedName)]) { row in
            guard let name = row[0].stringValue else { return }
            if let defaultSQL = row[1].stringValue { defaults[name] = defaultSQL }
            if defaults[name] != nil || row[2] == .bool(true) || row[2].intValue == 1 { filled.insert(name) }
        }
        return schema.columns.map { name in
            let type = schema.columnTypes[name] ?? ""
            return EditableColumn(
                name: name, declaredType: type, isNotNull: schema.notNullColumns.contains(name), defaultSQL: defaults[name],
                fillsItself: filled.contains(name), editor: editor(forType: type, postgres: true), isPostgresBoolean: type == "boolean"
            )
        }
    }

    /// The columns of `schema`'s table, from the catalog of its dialect.
    static func all(_ schema: DatabaseTableSchema, in db: any SQLSession) throws -> [EditableColumn] {
        schema.dialect == .postgresql ? try postgres(schema, in: db) : try sqlite(schema, in: db)
    }
}
