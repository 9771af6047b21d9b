/// Which column of a table labels its rows where another table refers to them: a foreign-key
/// value shows the referenced row's label (`customer_id` 1599 as "Ida Meyer").
///
/// The rule is Datasette's: a column set for the table (``overrides``, what a configuration file
/// will set per table), else the first column named `name` or `title` (in any case), else, in a
/// table of two columns one of which is `id` or `pk`, the other one. A table none of these fit
/// has no label column, and values referring to it show as they are, linked to the row.
struct DatabaseLabelColumns: Sendable {
    /// The label column of a table, by table name, chosen by configuration rather than the rule.
    var overrides: [String: String] = [:]

    /// The label column of `table`, whose columns are `columns`; nil when it has none.
    func column(of table: String, columns: [String]) -> String? {
        if let chosen = overrides[table], columns.contains(chosen) { return chosen }
        if let named = columns.first(where: { ["name", "title"].contains($0.lowercased()) }) { return named }
        if columns.count == 2, let key = columns.first(where: { $0 == "id" || $0 == "pk" }) {
            return columns.first { $0 != key }
        }
        return nil
    }
}
