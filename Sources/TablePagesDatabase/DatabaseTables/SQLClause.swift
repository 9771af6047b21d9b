import TableStore

/// A piece of SQL with its arguments; values are always arguments, names always quoted.
struct SQLClause {
    var sql: String
    var arguments: [SQLValue]

    init(sql: String, arguments: [SQLValue]) {
        self.sql = sql
        self.arguments = arguments
    }

    /// ` WHERE t1 AND t2…`, or nothing when there are no terms.
    init(whereAll terms: [SQLClause]) {
        sql = terms.isEmpty ? "" : " WHERE " + terms.map(\.sql).joined(separator: " AND ")
        arguments = terms.flatMap(\.arguments)
    }
}
