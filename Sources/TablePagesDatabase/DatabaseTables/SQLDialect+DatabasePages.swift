import TableStore

/// The SQL of a database page's queries: the few places where SQLite and PostgreSQL differ, so that
/// one query builder (`DatabaseTableReader`) serves both. SQLite: `?` placeholders whose values
/// SQLite converts by the column's affinity, NULL first in ascending order, `LIKE` case-insensitive
/// for ASCII, full-text search by FTS5. PostgreSQL: each value bound as text and cast to its
/// column's type, NULL placed as SQLite places it (`NULLS FIRST` ascending), `ILIKE` on the
/// column's text, no full-text search.
extension SQLDialect {
    /// The placeholder for a value compared with a column declared `type` (PostgreSQL's
    /// `format_type` spelling; ignored by SQLite). PostgreSQL is strictly typed: a text parameter
    /// compared with an integer column is an error, so the value is cast to the column's type,
    /// which also makes it an index lookup.
    func placeholder(type: String?) -> String {
        switch self {
        case .sqlite: "?"
        case .postgresql: type.map { "CAST(? AS \($0))" } ?? "?"
        }
    }

    /// `column IS value`, NULL matching NULL.
    var nullSafeEquals: String {
        switch self {
        case .sqlite: "IS"
        case .postgresql: "IS NOT DISTINCT FROM"
        }
    }

    /// What follows a sort term to put NULL where SQLite puts it: first ascending, last
    /// descending. PostgreSQL's default is the opposite, and the keyset clauses assume SQLite's.
    func nullOrder(descending: Bool) -> String {
        switch self {
        case .sqlite: ""
        case .postgresql: descending ? " NULLS LAST" : " NULLS FIRST"
        }
    }

    /// `quotedColumn` matched against a `LIKE` pattern escaped with `\`: ASCII case-insensitive in
    /// SQLite; in PostgreSQL `ILIKE` on the value's text, so any type can be searched.
    /// A quoted column as text: as it is in SQLite, which compares any value with text, and
    /// cast in PostgreSQL, where comparing a number with `''` is an error.
    func asText(_ quotedColumn: String) -> String {
        switch self {
        case .sqlite: quotedColumn
        case .postgresql: "\(quotedColumn)::text"
        }
    }

    func like(_ quotedColumn: String) -> String {
        switch self {
        case .sqlite: "\(quotedColumn) LIKE ? ESCAPE '\\'"
        case .postgresql: "\(quotedColumn)::text ILIKE ? ESCAPE '\\'"
        }
    }
}
