import Escaping
import TableStore

/// A table as Datasette describes it in its JSON: its columns in declaration order and its
/// primary key, or none, when Datasette addresses its rows by `rowid` (which it then shows as the
/// first column). Beside it, the page's own ``DatabaseTableSchema``, whose filters the API uses.
struct DatasetteTable: Sendable {
    /// The page's schema: name, quoting, affinities, full-text index.
    let schema: DatabaseTableSchema
    /// The columns, in declaration order (the page puts the key first; Datasette does not).
    let columns: [String]
    /// The primary key's columns in key order; empty for a table Datasette pages by `rowid`.
    let primaryKeys: [String]
    /// The columns with a foreign key in `PRAGMA foreign_key_list`'s order (the last declared
    /// first), the order of Datasette's `expandable_columns`.
    var foreignKeyColumns: [String] = []

    /// The name Datasette gives the rowid of a table without a primary key.
    static let rowIDName = "rowid"

    /// Whether this is a view: its rows have no address, and its pages follow by offset.
    var isView: Bool { schema.isView }

    /// Whether rows are addressed by `rowid` (a table without a primary key).
    var usesRowID: Bool { primaryKeys.isEmpty && !isView }

    /// The columns that address a row in Datasette's JSON: the primary key, or `rowid`; none for a view.
    var addressColumns: [String] { isView ? [] : usesRowID ? [Self.rowIDName] : primaryKeys }

    /// `column` (or `rowid`) as an SQL expression: the rowid by the alias no column shadows.
    func expression(_ column: String) -> String {
        if usesRowID, column == Self.rowIDName, schema.keyIsRowID { return SQLIdentifier.quoted(schema.key[0]) }
        return SQLIdentifier.quoted(column)
    }

    /// The affinity a value compared with `column` is bound with (INTEGER for `rowid`).
    func affinity(of column: String) -> ColumnAffinity {
        usesRowID && column == Self.rowIDName ? .integer : schema.affinity(of: column)
    }

    /// The key a row's path segment names (`pk` of `/{table}/{pk}`: the address columns' values,
    /// tilde-encoded and joined by commas), as given and as bound to compare with the columns;
    /// nil when it names too few or too many, or has a malformed escape.
    func key(_ token: String) -> (texts: [String], values: [SQLValue])? {
        let parts = token.split(separator: ",", omittingEmptySubsequences: false).map { TildeEncoding.decode(String($0)) }
        guard !isView, parts.count == addressColumns.count, parts.allSatisfy({ $0 != nil }) else { return nil }
        let texts = parts.compactMap { $0 }
        return (texts, zip(addressColumns, texts).map { DatabaseFilter.bound($1, affinity: affinity(of: $0)) })
    }

    /// Reads how Datasette sees `schema`'s table: `pragma_table_info`'s order and `pk` numbers.
    static func read(_ schema: DatabaseTableSchema, in db: any SQLSession) throws -> DatasetteTable {
        let info = try PragmaColumn.all(of: schema.name, in: db)
        let primaryKeys = info.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
        var table = DatasetteTable(schema: schema, columns: info.map(\.name), primaryKeys: primaryKeys)
        table.foreignKeyColumns = try db.rows("SELECT \"from\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", [.text(schema.name)]).map { $0[0].stringValue ?? "" }
        return table
    }
}
