import TableStore

/// Reads the labels of the rows a page's linked columns refer to (``DatabaseLinkedColumn``): for
/// one page of rows, one query, whatever the number of rows or linked columns — a `UNION ALL` of
/// one `SELECT referenced, label FROM table WHERE referenced IN (…)` per linked column that has a
/// label column, over the distinct values the page holds. Values match by their text (the integer
/// 1599 and the text `1599` are one key, as SQLite's affinity makes them), and PostgreSQL reads
/// both columns as text, so the branches of the union agree on their types.
///
/// Bounded: a label is read as its first ``maxLabelCharacters`` characters (a page shows at most
/// ``DatabaseRecordCell/maxShownBytes`` of it), and a value longer than ``maxKeyBytes`` is not
/// looked up (``key(_:)``), so a page of huge values holds no more than its cut cells.
struct DatabaseLabelReader: Sendable {
    /// The characters of a label read: one more than a page shows in bytes, so a longer label is
    /// still cut with an ellipsis.
    static let maxLabelCharacters = DatabaseRecordCell.maxShownBytes + 1
    /// The longest text value (in UTF-8 bytes) whose label is looked up.
    static let maxKeyBytes = 1024

    /// `value` as a page keeps it to look its label up: NULL (no label) for a blob or a text longer
    /// than ``maxKeyBytes``.
    static func key(_ value: SQLValue) -> SQLValue {
        switch value {
        case .text(let text) where text.utf8.count > maxKeyBytes: .null
        case .blob: .null
        default: value
        }
    }

    /// The page's linked columns.
    let linked: [DatabaseLinkedColumn]
    /// The SQL the database speaks.
    let dialect: SQLDialect

    /// For each linked column (in order), the labels by the text of the value that refers to the
    /// row; `values[i]` are the values of `linked[i]` in the page. A row found whose label is NULL
    /// (or a blob) has a nil label, which Datasette expands as `"label": null`; a value whose row
    /// is missing has no entry. Columns without a label column get none.
    func labels(for values: [[SQLValue]], in db: any SQLSession) throws -> [[String: String?]] {
        var branches: [String] = []
        var arguments: [SQLValue] = []
        for (index, column) in linked.enumerated() {
            guard let label = column.selectedLabel, index < values.count else { continue }
            var seen: Set<String> = []
            let distinct = values[index].filter { value in
                DatabaseLinkedColumn.text(of: value).map { seen.insert($0).inserted } ?? false
            }
            guard !distinct.isEmpty else { continue }
            let placeholders = Array(repeating: column.referencedPlaceholder, count: distinct.count).joined(separator: ", ")
            let referenced = dialect == .postgresql ? "(\(column.selectedReferenced))::text" : column.selectedReferenced
            let labelText = dialect == .postgresql ? "left((\(label))::text, \(Self.maxLabelCharacters))" : "substr(\(label), 1, \(Self.maxLabelCharacters))"
            branches.append("SELECT \(index), \(referenced), \(labelText) FROM \(column.quotedTable) WHERE \(SQLIdentifier.quoted(column.referencedColumn)) IN (\(placeholders))")
            arguments += distinct
        }
        var labels = Array(repeating: [String: String?](), count: linked.count)
        guard !branches.isEmpty else { return labels }
        try db.forEachRow(branches.joined(separator: " UNION ALL "), arguments) { row in
            guard row.count == 3, let index = row[0].intValue, labels.indices.contains(index),
                  let key = DatabaseLinkedColumn.text(of: row[1]) else { return }
            labels[index][key] = .some(DatabaseLinkedColumn.text(of: row[2]))
        }
        return labels
    }
}
