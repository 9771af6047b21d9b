/// One condition a database page's rows must meet: `column operator value`, from a query
/// parameter in Datasette's spelling (`price__gte=10`) or this project's (`category=books`, an
/// exact match).
struct DatabaseFilter: Sendable, Hashable {
    /// How the column is compared with the value; the raw value is the suffix after `__`.
    enum Operator: String, Sendable, CaseIterable {
        /// Equal to the value (`col=value` or `col__exact=value`).
        case exact
        /// Not equal to the value; NULL is not equal to anything.
        case not
        /// Text containing the value.
        case contains
        /// Text starting with the value.
        case startswith
        /// Text ending with the value.
        case endswith
        /// Greater than the value.
        case gt
        /// Greater than or equal to the value.
        case gte
        /// Less than the value.
        case lt
        /// Less than or equal to the value.
        case lte
        /// One of a comma-separated list of values.
        case `in`
        /// None of a comma-separated list of values.
        case notin
        /// NULL (the value is ignored).
        case isnull
        /// Not NULL (the value is ignored).
        case notnull
    }

    /// The column, in the schema's spelling.
    var column: String
    /// The comparison.
    var comparison: Operator
    /// The value as given in the query (a comma-separated list for `in` and `notin`).
    var value: String
}
