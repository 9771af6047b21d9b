import GRDB
import TableKit
import TablePages

/// The shape of a database page's variant: the order of its rows, the column that splits them
/// into sections, and the filters that pick them.
///
/// Query parameters: `sort=col` or `sort=-col` (descending), `group=col`, and `col=value` for
/// each filter (equality; SQLite's column affinity lets `price=12.5` match a REAL). `limit`,
/// `after`, `format`, `lastEventId` and names starting with `_` are not about the shape and are
/// left to the routes, so a column with one of those names, `sort` or `group` cannot be filtered.
struct DatabaseTableQuery: Sendable, Hashable {
    /// The sort column, or nil for the table's default order.
    var sort: String?
    /// Whether the order is descending (the key breaks ties in the same direction).
    var descending = false
    /// The column whose values make the sections.
    var group: String?
    /// The conditions the rows meet, all of them, in a stable order.
    var filters: [DatabaseFilter] = []
    /// Words to find with the table's FTS5 index (`_search`), or nil.
    var search: String?
    /// The columns whose value counts the page shows (`_facet`, repeatable), in the order asked.
    var facets: [String] = []

    static let sortParameter = "sort"
    static let groupParameter = "group"
    private static let routeParameters = PageContract.Query.all

    /// The query of a variant chosen by ``resolve(_:schema:)``.
    init(variant parameters: [String: String], schema: DatabaseTableSchema) {
        var sort = parameters[Self.sortParameter] ?? schema.defaultSort
        if let descending = sort?.hasPrefix("-"), descending {
            self.descending = true
            sort?.removeFirst()
        }
        self.sort = sort
        group = parameters[Self.groupParameter]
        filters = parameters.filter { $0.key != Self.sortParameter && $0.key != Self.groupParameter }
            .sorted { $0.key < $1.key }
            .map { DatabaseFilter(column: $0.key, comparison: .exact, value: $0.value) }
    }

    /// The variant parameters a request's query chooses, with column names in the schema's
    /// spelling, or a message naming what is wrong.
    static func resolve(_ query: [String: String], schema: DatabaseTableSchema) throws(PageDefinition.VariantError) -> [String: String] {
        var chosen: [String: String] = [:]
        for (name, value) in query where !routeParameters.contains(name) && !name.hasPrefix("_") {
            switch name {
            case sortParameter:
                let descending = value.hasPrefix("-")
                let column = try known(String(value.dropFirst(descending ? 1 : 0)), for: "sort", in: schema)
                if column != schema.defaultSort || descending {
                    chosen[sortParameter] = (descending ? "-" : "") + column
                }
            case groupParameter:
                chosen[groupParameter] = try known(value, for: "group", in: schema)
            default:
                chosen[try known(name, for: "a filter", in: schema)] = value
            }
        }
        return chosen
    }

    private static func known(_ name: String, for use: String, in schema: DatabaseTableSchema) throws(PageDefinition.VariantError) -> String {
        guard let column = schema.column(named: name) else {
            let columns = schema.columns.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ")
            throw PageDefinition.VariantError(message: "\u{201C}\(name)\u{201D} is not a column of \u{201C}\(schema.name)\u{201D}, so it cannot be used for \(use). Its columns are \(columns); other parameters are sort, group and limit.")
        }
        return column
    }
}
