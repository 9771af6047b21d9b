/// Table and column names in SQL: names are data and may hold any character, quotes included.
public enum SQLIdentifier {
    /// `name` as a quoted SQL identifier: wrapped in double quotes, with each double quote inside
    /// doubled. (GRDB's `quotedDatabaseIdentifier` does not double inner quotes.)
    ///
    /// Works on Unicode scalars, as SQLite reads bytes: a `"` followed by a combining mark is one
    /// `Character` that is not equal to `"`, yet its quote still ends the identifier in SQL.
    public static func quoted(_ name: String) -> String {
        var quoted = String.UnicodeScalarView()
        quoted.reserveCapacity(name.utf8.count + 2)
        quoted.append("\"")
        for scalar in name.unicodeScalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }
}
