/// Which SQL a database speaks, for the few places where SQLite and PostgreSQL differ: an
/// ``SQLStore``'s schema, and the SQL of a database table's pages (TablePagesDatabase extends it).
public enum SQLDialect: String, Sendable, Hashable {
    /// SQLite, through GRDB (``Store``).
    case sqlite
    /// PostgreSQL (TableStorePostgres' `PostgresStore`, TablePagesPostgres' table pages).
    case postgresql

    /// `sql` with its `?` placeholders numbered `$1`, `$2`…, as PostgreSQL wants them; a `?` inside
    /// a quoted identifier (`"a?"`) or a string literal is left alone. Quotes inside either are
    /// doubled, so each quote simply toggles whether the scan is inside; the SQL holds no comments
    /// and no dollar-quoted strings. SQLite's SQL is returned as it is.
    public func numberingPlaceholders(_ sql: String) -> String {
        guard self == .postgresql else { return sql }
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
