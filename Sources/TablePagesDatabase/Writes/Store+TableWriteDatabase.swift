import GRDB
import TableStore

extension Store: TableWriteDatabase {
    /// SQLite's constraint errors by their extended result codes, the column taken from the
    /// message where SQLite names it (`NOT NULL constraint failed: item.title`); a STRICT table's
    /// and an `INTEGER PRIMARY KEY`'s type errors; `SQLITE_BUSY` as retryable.
    public func refusal(of error: any Error, table: String) -> TableWriteError? {
        guard let error = error as? DatabaseError else { return nil }
        if error.isBusyWithAnotherWriter {
            return .failed(message: "Another writer holds the database; try again.", retryable: true)
        }
        let message = error.message ?? "\(error.resultCode)"
        // After the colon SQLite lists `table.column` names, or a CHECK's name or expression.
        let named = message.split(separator: ": ", maxSplits: 1).dropFirst().first.map(String.init)
        func column(_ qualified: String?) -> String? {
            guard let qualified else { return nil }
            let first = qualified.components(separatedBy: ", ")[0]
            return first.hasPrefix(table + ".") ? String(first.dropFirst(table.count + 1)) : nil
        }
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_NOTNULL:
            return .constraint(column: column(named), rule: .notNull, message: "may not be empty (NOT NULL)")
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            return .constraint(column: column(named), rule: .unique, message: "another row already has this value (UNIQUE)")
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            return .constraint(column: nil, rule: .foreignKey, message: "no row of the referenced table has this value (FOREIGN KEY)")
        case .SQLITE_CONSTRAINT_CHECK, .SQLITE_CONSTRAINT_TRIGGER:
            return .constraint(column: nil, rule: .check, message: "refused by the table's rule: \(named ?? message)")
        case ResultCode(rawValue: Self.constraintDatatype):
            // "cannot store TEXT value in INTEGER column item.qty"
            let qualified = message.components(separatedBy: " column ").last
            return .constraint(column: column(qualified), rule: .type, message: message.components(separatedBy: " column ").first.map { "\($0) column" } ?? message)
        case .SQLITE_MISMATCH:
            // An INTEGER PRIMARY KEY given a value that is not an integer.
            return .constraint(column: nil, rule: .type, message: "must be an integer (INTEGER PRIMARY KEY)")
        case .SQLITE_TOOBIG:
            return .invalid(column: nil, message: "a value is too big for SQLite")
        case .SQLITE_ERROR where message.hasPrefix("cannot INSERT into generated column") || message.hasPrefix("cannot UPDATE generated column"):
            // "cannot UPDATE generated column \"total\""
            let name = message.split(separator: "\"").dropFirst().first.map(String.init)
            return .invalid(column: name, message: "a generated column is computed by the database and cannot be written")
        default:
            return nil
        }
    }

    /// `SQLITE_CONSTRAINT_DATATYPE` (a STRICT table's type check), which GRDB does not name.
    private static let constraintDatatype: CInt = 3091
}
