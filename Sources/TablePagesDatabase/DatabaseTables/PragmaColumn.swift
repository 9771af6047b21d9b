import TableStore

/// One column of a SQLite table or view as `pragma_table_xinfo` lists it: the pages' and the
/// Datasette URLs' one reading of a table's columns. The pragma's table-valued form takes the name
/// as an argument, so any name reads without quoting. `hidden` 1 marks a virtual table's hidden
/// columns, which are left out; generated columns (2, 3) are kept.
struct PragmaColumn {
    /// The column's name.
    let name: String
    /// Its declared type, empty when it has none.
    let type: String
    /// Its position in the primary key from 1; 0 when it is not in the key.
    let primaryKeyPosition: Int

    /// The columns of `table`, in declaration order, or with the primary key's first (in key order)
    /// when `primaryKeyFirst`.
    static func all(of table: String, in db: any SQLSession, primaryKeyFirst: Bool = false) throws -> [PragmaColumn] {
        let order = primaryKeyFirst ? "pk = 0, pk, cid" : "cid"
        return try db.rows("SELECT name, type, pk FROM pragma_table_xinfo(?) WHERE hidden <> 1 ORDER BY \(order)", [.text(table)]).map { row in
            PragmaColumn(name: row[0].stringValue ?? "", type: row[1].stringValue ?? "", primaryKeyPosition: row[2].intValue ?? 0)
        }
    }
}
