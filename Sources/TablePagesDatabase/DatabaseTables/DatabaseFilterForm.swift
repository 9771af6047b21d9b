import TablePages

/// The filter form of a database page's header (``DatabaseTableHeader``): a GET form, so it
/// works without JavaScript, whose three fields name a column, a comparison and a value, as
/// Datasette's form does. HTML cannot make a field's value the name of a parameter, so the page
/// reads the three fields as the filter they describe, `column__comparison=value`.
///
///     ?_filter_column=price&_filter_op=gte&_filter_value=10&_sort=name
///     // reads as ?price__gte=10&_sort=name
enum DatabaseFilterForm {
    /// The field that names the column.
    static let columnField = "_filter_column"
    /// The field that names the comparison, a ``DatabaseFilter/Operator`` raw value.
    static let operatorField = "_filter_op"
    /// The field that holds the value.
    static let valueField = "_filter_value"

    /// `query` with the form's fields replaced by the filter they describe; unchanged when it has
    /// none of them. A form sent without a column, or without a value for a comparison that takes
    /// one, adds no filter (Datasette's form does the same). `isnull` and `notnull` get the value
    /// `1`. The filter goes where the form's fields were, the other items keep their order.
    /// - Throws: a message naming the comparisons when `_filter_op` is not one of them.
    static func expanded(_ query: [(name: String, value: String)]) throws(PageDefinition.VariantError) -> [(name: String, value: String)] {
        let fields: Set = [columnField, operatorField, valueField]
        guard let position = query.firstIndex(where: { fields.contains($0.name) }) else { return query }
        // The last value of each field, as a form sends each once.
        func last(_ field: String) -> String? { query.last { $0.name == field }?.value }
        var expanded = query.filter { !fields.contains($0.name) }
        let name = last(operatorField) ?? DatabaseFilter.Operator.exact.rawValue
        guard let comparison = DatabaseFilter.Operator(rawValue: name) else {
            let names = DatabaseFilter.Operator.allCases.map(\.rawValue).joined(separator: ", ")
            throw PageDefinition.VariantError(message: "\(operatorField) must be one of \(names); got \u{201C}\(name)\u{201D}.")
        }
        let value = last(valueField) ?? ""
        let takesNoValue = comparison.takesNoValue
        guard let column = last(columnField), !column.isEmpty, takesNoValue || !value.isEmpty else { return expanded }
        let parameter = DatasetteQuery.parameter(DatabaseFilter(column: column, comparison: comparison, value: value))
        expanded.insert((name: parameter.name, value: parameter.value), at: min(position, expanded.count))
        return expanded
    }

    /// The dictionary form of the `expanded(_:)` above, for a query whose names are unique.
    static func expanded(_ query: [String: String]) throws(PageDefinition.VariantError) -> [String: String] {
        let items = try expanded(query.map { (name: $0.key, value: $0.value) })
        return Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
