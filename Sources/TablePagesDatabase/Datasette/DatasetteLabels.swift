import GRDB

/// Where foreign-key labels join Datasette's table JSON: `_labels=on` shows a value that
/// references another table's row as `{"value": 1599, "label": "Ida Meyer"}`, and the document's
/// `expandable_columns` and `expanded_columns` list the columns that can and do show them.
///
/// Until foreign keys are read, no column has labels: `_labels` is accepted and changes nothing.
/// Foreign-key support fills in ``expandableColumns(of:)`` and
/// ``labels(of:values:in:runner:)``: ``DatasetteTableReader`` asks for the labels of the page's
/// values in the page's read when `_labels` is on, and ``DatasetteJSON`` writes both
/// (`expandable_columns`, `expanded_columns`, and each labelled value as an object).
struct DatasetteLabels: Sendable {
    /// The columns of `table` whose values reference a row with a label, as Datasette lists them
    /// in `expandable_columns` (each a `[{"column":…, "other_table":…, "other_column":…}, label column]` pair).
    func expandableColumns(of table: DatasetteTable) -> [(column: String, otherTable: String, otherColumn: String, labelColumn: String)] {
        []
    }

    /// The label of each of `values` of `column` that references a labelled row, read in one go.
    func labels(of column: String, values: [DatabaseValue], in table: DatasetteTable, runner: any DatabaseTableQueryRunner) throws -> [DatabaseValue: String] {
        [:]
    }
}
