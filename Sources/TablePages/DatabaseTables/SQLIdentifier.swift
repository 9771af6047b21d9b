/// Table and column names in SQL: names are data and may hold any character, quotes included.
enum SQLIdentifier {
    /// `name` as a quoted SQL identifier: wrapped in double quotes, with each double quote inside
    /// doubled. (GRDB's `quotedDatabaseIdentifier` does not double inner quotes.)
    static func quoted(_ name: String) -> String {
        var quoted = "\""
        quoted.reserveCapacity(name.utf8.count + 2)
        for character in name {
            if character == "\"" { quoted.append("\"") }
            quoted.append(character)
        }
        quoted.append("\"")
        return quoted
    }
}
