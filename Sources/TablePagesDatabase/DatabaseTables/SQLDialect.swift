/// The SQL a database page's queries are written in: the few places where SQLite and PostgreSQL
/// differ, so that one query builder (`DatabaseTableReader`) serves both.
public enum SQLDialect: Sendable, Hashable {
    /// SQLite: `?` placeholders whose values SQLite converts by the column's affinity, NULL first
    /// in ascending order, `LIKE` case-insensitive for ASCII, full-text search by FTS5.
    case sqlite
    /// PostgreSQL: each value bound as text and cast to its column's type, NULL placed as SQLite
    /// places it (`NULLS FIRST` ascending), `ILIKE` on the column's text, no full-text search.
    case postgres

    /// The placeholder for a value compared with a column declared `type` (PostgreSQL's
    /// `format_type` spelling; ignored by SQLite). PostgreSQL is strictly typed: a text parameter
    /// compared with an integer column is an error, so the value is cast to the column's type,
    /// which also makes it an index lookup.
    func placeholder(type: String?) -> String {
        switch self {
        case .sqlite: "?"
        case .postgres: type.map { "CAST(? AS \($0))" } ?? "?"
        }
    }

    /// `column IS value`, NULL matching NULL.
    var nullSafeEquals: String {
        switch self {
        case .sqlite: "IS"
        case .postgres: "IS NOT DISTINCT FROM"
        }
    }

    /// What follows a sort term to put NULL where SQLite puts it: first ascending, last
    /// descending. PostgreSQL's default is the opposite, and the keyset clauses assume SQLite's.
    func nullOrder(descending: Bool) -> String {
        switch self {
        case .sqlite: ""
        case .postgres: descending ? " NULLS LAST" : " NULLS FIRST"
        }
    }

    /// `quotedColumn` matched against a `LIKE` pattern escaped with `\`: ASCII case-insensitive in
    /// SQLite; in PostgreSQL `ILIKE` on the value's text, so any type can be searched.
    func like(_ quotedColumn: String) -> String {
        switch self {
        case .sqlite: "\(quotedColumn) LIKE ? ESCAPE '\\'"
        case .postgres: "\(quotedColumn)::text ILIKE ? ESCAPE '\\'"
        }
    }

    /// `sql` with its `?` placeholders numbered `$1`, `$2`…, as PostgreSQL wants them; a `?` inside
    /// a quoted identifier (`"a?"`) or a string literal is left alone. Quotes inside either are
    /// doubled, so each quote simply toggles whether the scan is inside; the page's SQL holds no
    /// comments and no dollar-quoted strings.
    public func numberingPlaceholders(_ sql: String) -> String {
        guard self == .postgres else { return sql }
        var result = String.UnicodeScalarView()
        var quote: Unicode.Scalar?
        var number = 0
        for scalar in sql.unicodeScalars {
            if let open = quote {
                if scalar == open { quote = nil }
                result.append(scalar)
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
                result.append(scalar)
            } else if scalar == "?" {
                number += 1
                result.append(contentsOf: "$\(number)".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
