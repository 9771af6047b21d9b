import TableStore

/// Foreign-key labels in Datasette's table JSON: with `_labels=on` a value that references
/// another table's row is written `{"value": 1599, "label": "Ida Meyer"}`, and the document's
/// `expandable_columns` and `expanded_columns` list the columns that can and do show them.
///
/// The links are the page's own (``DatabaseTableSchema/linkedColumns``) and the labels are read as
/// the page reads them (``DatabaseLabelReader``: one query per page of rows, cut to what a page
/// shows), with Datasette's two special cases: a referenced row whose label is NULL is
/// `"label": null`, and a referenced table without a label column labels each value with its own
/// text. A value whose row is missing stays a plain value.
struct DatasetteLabels: Sendable {
    /// A column's label for one value: `.some(nil)` for a row found whose label is NULL.
    typealias Label = String?

    /// The columns of `table` whose values reference a row, as Datasette lists them in
    /// `expandable_columns` and in its order (each a `[{"column":…, "other_table":…, "other_column":…}, label column]` pair).
    func expandableColumns(of table: DatasetteTable) -> [(column: String, otherTable: String, otherColumn: String, labelColumn: String?)] {
        let order = Dictionary(table.foreignKeyColumns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return table.schema.linkedColumns
            .sorted { order[$0.column, default: .max] < order[$1.column, default: .max] }
            .map { ($0.column, $0.table, $0.referencedColumn, $0.labelColumn) }
    }

    /// The label of each of `values` of `column` that references a row, read in one query.
    func labels(of column: String, values: [SQLValue], in table: DatasetteTable, runner: any SQLSession) throws -> [SQLValue: Label] {
        guard let link = table.schema.linkedColumns.first(where: { $0.column == column }) else { return [:] }
        return try Self.labels(of: link, values: values, dialect: table.schema.dialect, runner: runner)
    }

    /// The label of each of `values` of `link`'s column that references a row, read in one
    /// query: the row's label, or, when `link`'s table has no label column, the value's own text.
    static func labels(of link: DatabaseLinkedColumn, values: [SQLValue], dialect: SQLDialect, runner: any SQLSession) throws -> [SQLValue: Label] {
        let found = link.labelColumn == nil
            ? [:]
            : try DatabaseLabelReader(linked: [link], dialect: dialect).labels(for: [values.map(DatabaseLabelReader.key)], in: runner)[0]
        var labels: [SQLValue: Label] = [:]
        for value in values {
            guard let key = DatabaseLinkedColumn.text(of: DatabaseLabelReader.key(value)) else { continue }
            if link.labelColumn == nil {
                labels[value] = .some(key)
            } else if let label = found[key] {
                labels[value] = label
            }
        }
        return labels
    }
}
