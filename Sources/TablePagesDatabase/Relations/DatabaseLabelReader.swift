import GRDB
import TableStore

/// Reads the labels of the rows a page's linked columns refer to (``DatabaseLinkedColumn``): for
/// one page of rows, one query, whatever the number of rows or linked columns — a `UNION ALL` of
/// one `SELECT referenced, label FROM table WHERE referenced IN (…)` per linked column that has a
/// label column, over the distinct values the page holds. Values match by their text (the integer
/// 1599 and the text `1599` are one key, as SQLite's affinity makes them), and PostgreSQL reads
/// both columns as text, so the branches of the union agree on their types.
struct DatabaseLabelReader: Sendable {
    /// The page's linked columns.
    let linked: [DatabaseLinkedColumn]
    /// The SQL the database speaks.
    let dialect: SQLDialect

    /// For each linked column (in order), the labels by the text of the value that refers to the
    /// row; `values[i]` are the values of `linked[i]` in the page. Columns without a label column
    /// get none.
    func labels(for values: [[DatabaseValue]], in db: any DatabaseTableQueryRunner) throws -> [[String: String]] {
        var branches: [String] = []
        var arguments: [DatabaseValue] = []
        for (index, column) in linked.enumerated() {
            guard let label = column.selectedLabel, index < values.count else { continue }
            var seen: Set<String> = []
            let distinct = values[index].filter { value in
                DatabaseLinkedColumn.text(of: value).map { seen.insert($0).inserted } ?? false
            }
            guard !distinct.isEmpty else { continue }
            let placeholders = Array(repeating: column.referencedPlaceholder, count: distinct.count).joined(separator: ", ")
            let referenced = dialect == .postgresql ? "(\(column.selectedReferenced))::text" : column.selectedReferenced
            let labelText = dialect == .postgresql ? "(\(label))::text" : label
            branches.append("SELECT \(index), \(referenced), \(labelText) FROM \(column.quotedTable) WHERE \(SQLIdentifier.quoted(column.referencedColumn)) IN (\(placeholders))")
            arguments += distinct
        }
        var labels = Array(repeating: [String: String](), count: linked.count)
        guard !branches.isEmpty else { return labels }
        try db.forEachRow(sql: branches.joined(separator: " UNION ALL "), arguments: arguments) { row in
            guard row.count == 3, let index = Int.fromDatabaseValue(row[0]), labels.indices.contains(index),
                  let key = DatabaseLinkedColumn.text(of: row[1]), let label = DatabaseLinkedColumn.text(of: row[2]) else { return }
            labels[index][key] = label
        }
        return labels
    }
}
