import Foundation
import TableStore

extension DatabaseTableReader {
    /// The most rows the SQL of ``editableQuery()`` asks for, as Datasette's "View and edit SQL"
    /// asks for one more than its page of 100.
    static let editableQueryLimit = 101

    /// The page's rows as one `SELECT` a visitor can run and change on the SQL page: its shown
    /// columns, its filters and search, its order, and ``editableQueryLimit``; every value a named
    /// parameter (`:p0`, `:p1`, … as Datasette names them) with its text. The same rows as the
    /// page's first ones, in the same order (a grouped page's rows are in their sections' order
    /// there, in the sort order here).
    func editableQuery() -> (sql: String, parameters: [(name: String, value: String)]) {
        let columns = shownColumns(in: .page).map(SQLIdentifier.quoted).joined(separator: ", ")
        let filters = filterClause()
        let positional = "SELECT \(columns) FROM \(schema.quotedName)\(filters.sql)\(orderBy()) LIMIT \(Self.editableQueryLimit)"
        let (sql, names) = SQLParameterNames.named(positional, prefix: "p")
        return (sql, zip(names, filters.arguments.map(Self.parameterText)).map { (name: $0, value: $1) })
    }

    /// A value as the SQL page's form takes it: text, which the database compares by the column's
    /// type (SQLite's affinity; PostgreSQL's placeholders cast it).
    private static func parameterText(_ value: SQLValue) -> String {
        switch value {
        case .null: ""
        case .integer(let integer): String(integer)
        case .real(let double): String(double)
        case .text(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .blob(let data): String(decoding: data, as: UTF8.self)
        }
    }
}
