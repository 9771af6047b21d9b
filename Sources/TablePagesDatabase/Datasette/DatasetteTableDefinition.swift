import TableKit
import TableStore

/// A table that Datasette's `/-/create` makes, and its `CREATE TABLE` text as sqlite-utils'
/// `Table.create` writes it, so that `sqlite_master` holds the same text here as there: one column
/// a line, indented three spaces; after a column's type, `PRIMARY KEY` (a single key column, added
/// first as INTEGER when no column names it), `NOT NULL`, `DEFAULT …` and `REFERENCES "t"("c")`, in
/// that order; a compound key as a last `PRIMARY KEY (…)` line.
struct DatasetteTableDefinition: Sendable, Equatable {
    /// One column of the table.
    struct Column: Sendable, Equatable {
        var name: String
        /// `TEXT`, `INTEGER`, `REAL` or `BLOB`.
        var type: String
        var notNull = false
        /// The SQL after `DEFAULT`, quoted as sqlite-utils quotes it; nil for none.
        var defaultSQL: String?
        /// The table and column the column refers to; nil for none.
        var references: Reference?
    }

    /// Where a column's foreign key points.
    struct Reference: Sendable, Equatable {
        var table: String
        var column: String
    }

    var table: String
    var columns: [Column]
    /// The primary key's columns; empty for a rowid table.
    var pks: [String]

    /// The `CREATE TABLE` statement, as sqlite-utils writes it (SQLite keeps it as written).
    var sql: String {
        var columns = columns
        if pks.count == 1, !columns.contains(where: { $0.name == pks[0] }) { columns.insert(Column(name: pks[0], type: "INTEGER"), at: 0) }
        var lines = columns.map { column in
            var line = "   \(SQLIdentifier.quoted(column.name)) \(column.type)"
            if pks.count == 1, pks[0] == column.name { line += " PRIMARY KEY" }
            if column.notNull { line += " NOT NULL" }
            if let defaultSQL = column.defaultSQL { line += " DEFAULT \(defaultSQL)" }
            if let reference = column.references {
                line += " REFERENCES \(SQLIdentifier.quoted(reference.table))(\(SQLIdentifier.quoted(reference.column)))"
            }
            return line
        }
        if pks.count > 1 { lines.append("   PRIMARY KEY (\(pks.map(SQLIdentifier.quoted).joined(separator: ", ")))") }
        return "CREATE TABLE \(SQLIdentifier.quoted(table)) (\n" + lines.joined(separator: ",\n") + "\n)"
    }

    /// The table `/-/create` makes from `columns`, its foreign keys resolved and its defaults
    /// quoted in `db` as sqlite-utils does, in its order: every key whose column is to be guessed
    /// (the referenced table's one primary key column), then every referenced column's spelling
    /// and existence, then each default.
    /// - Throws: ``DatasetteWriter/Refused`` with sqlite-utils' (or Python's) words.
    static func resolving(_ columns: [DatasetteWriteRequest.Create.Column], table: String, pks: [String], in db: any SQLSession) throws -> Self {
        var made = columns.map { Column(name: $0.name, type: $0.type, notNull: $0.notNull) }
        let names = columns.map(\.name)
        var targets: [(index: Int, table: String, column: String)] = []
        for (index, column) in columns.enumerated() {
            guard let other = column.foreignTable else { continue }
            if let given = column.foreignColumn {
                targets.append((index, other, given))
                continue
            }
            let keys = try tableColumns(other, in: db).filter { $0.primaryKeyPosition > 0 }
            guard keys.count == 1 else { throw DatasetteWriter.Refused(message: "Could not detect single primary key for table '\(other)'") }
            targets.append((index, other, keys[0].name))
        }
        for target in targets {
            let candidates = target.table == table ? names : try tableColumns(target.table, in: db).map(\.name)
            let column = resolvedCasing(target.column, among: candidates)
            made[target.index].references = Reference(table: target.table, column: column)
        }
        for target in targets {
            guard let reference = made[target.index].references else { continue }
            if reference.table == table, names.contains(reference.column) { continue }
            if reference.column != "rowid", try !tableColumns(reference.table, in: db).contains(where: { $0.name == reference.column }) {
                throw DatasetteWriter.Refused(message: "No such column: \(reference.table).\(reference.column)")
            }
        }
        for (index, column) in columns.enumerated() {
            if let expression = column.defaultExpression {
                made[index].defaultSQL = quotedDefault(expression: expression)
            } else if let value = column.defaultValue {
                made[index].defaultSQL = try quotedDefault(value, in: db)
            }
        }
        return DatasetteTableDefinition(table: table, columns: made, pks: pks)
    }

    /// The columns of the table named exactly `name` (sqlite-utils finds a table by its exact
    /// name); none when there is no such table.
    private static func tableColumns(_ name: String, in db: any SQLSession) throws -> [PragmaColumn] {
        guard try db.row("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil else { return [] }
        return try PragmaColumn.all(of: name, in: db)
    }

    /// `name` spelt as the candidate it names, SQLite folding ASCII letters only; itself when none does.
    static func resolvedCasing(_ name: String, among candidates: [String]) -> String {
        if candidates.contains(name) { return name }
        let folded = asciiLowercased(name)
        return candidates.first { asciiLowercased($0) == folded } ?? name
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32) ?? $0 : $0 }))
    }

    /// A `default_expr`'s SQL as sqlite-utils puts it after `DEFAULT`: a keyword as it is, an
    /// expression in parentheses.
    static func quotedDefault(expression: String) -> String {
        ["CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"].contains(expression.uppercased()) ? expression : "(\(expression))"
    }

    /// A `default` value as sqlite-utils puts it after `DEFAULT`: SQLite's own `quote()` of it (a
    /// text in single quotes, a boolean as 1 or 0).
    /// - Throws: ``DatasetteWriter/Refused`` for a list or an object, in Python's words for binding one.
    static func quotedDefault(_ value: JSONValue, in db: any SQLSession) throws -> String {
        let bound: SQLValue
        switch value {
        case .null: return "NULL"
        case .bool(let flag): bound = .integer(flag ? 1 : 0)
        case .integer(let integer): bound = .integer(integer)
        case .number(let real): bound = .real(real)
        case .string(let text): bound = .text(text)
        case .array: throw DatasetteWriter.Refused(message: "Error binding parameter 1: type 'list' is not supported")
        case .object: throw DatasetteWriter.Refused(message: "Error binding parameter 1: type 'dict' is not supported")
        }
        return try db.row("SELECT quote(?)", [bound])?.values.first?.stringValue ?? "NULL"
    }
}
