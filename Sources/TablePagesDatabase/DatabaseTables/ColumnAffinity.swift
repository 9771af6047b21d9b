/// How SQLite converts values stored in, or compared with, a column: decided by the words of the
/// column's declared type, by the rules of SQLite's "Datatypes" page (§3.1), in their order.
enum ColumnAffinity: Sendable, Hashable {
    /// Declared type containing `INT`.
    case integer
    /// Containing `CHAR`, `CLOB` or `TEXT`.
    case text
    /// Containing `BLOB`, or no type at all: values are stored and compared as given.
    case blob
    /// Containing `REAL`, `FLOA` or `DOUB`.
    case real
    /// Any other type (`NUMERIC`, `DECIMAL`, `BOOLEAN`, `DATE`…).
    case numeric

    /// The affinity SQLite gives a column declared with `declaredType`.
    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.allSatisfy(\.isWhitespace) {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
