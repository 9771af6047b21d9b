import Foundation
import PostgresNIO
import TablePagesDatabase
import TableStore

extension PostgresTableExecutor: TableWriteDatabase {
    /// Writes in one `READ WRITE` transaction (a pool opened with `--writable` has no
    /// `default_transaction_read_only`), on a connection leased for it. Its session names the
    /// write (``/TablePagesDatabase/IdentifiedWriteSession``): when the audit trail recorded the
    /// id and the connection fails after `COMMIT` was sent, the trail is asked whether the write
    /// committed, so the answer says what happened.
    public func transaction<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
        try inTransaction(begin: "BEGIN READ WRITE", write: PostgresWriteMark(), body)
    }

    /// PostgreSQL's integrity errors (SQLSTATE class 23) by their rule, the column taken from the
    /// error's column field or its detail (`Key (name)=(…) already exists.`); a value its column's
    /// type refuses (class 22, and a type mismatch) as a type error; an unreachable server, a
    /// statement past the time limit, a serialization failure or a deadlock as retryable.
    public func refusal(of error: any Error, table: String) -> TableWriteError? {
        if let error = error as? PostgresReadError, error.status == 503 {
            return .failed(message: "The PostgreSQL database cannot be reached; try again.", retryable: true)
        }
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return nil }
        let message = error.serverInfo?[.message] ?? state
        let column = error.serverInfo?[.columnName] ?? Self.keyColumn(inDetail: error.serverInfo?[.detail])
        switch state {
        case "23502":
            return .constraint(column: column, rule: .notNull, message: "may not be empty (NOT NULL)")
        case "23505":
            return .constraint(column: column, rule: .unique, message: "another row already has this value (UNIQUE)")
        case "23503":
            return .constraint(column: column, rule: .foreignKey, message: "no row of the referenced table has this value (FOREIGN KEY)")
        case "23514", "23P01":
            return .constraint(column: column, rule: .check, message: "refused by the table's rule: \(error.serverInfo?[.constraintName] ?? message)")
        case "428C9":
            // A GENERATED ALWAYS column: computed by the database.
            return .invalid(column: column, message: "a generated column is computed by the database and cannot be written")
        case "42804", "42846":
            return .constraint(column: column, rule: .type, message: message)
        case "57014", "40001", "40P01", "55P03":
            return .failed(message: "The PostgreSQL database was busy; try again.", retryable: true)
        case let state where state.hasPrefix("22"):
            return .constraint(column: column, rule: .type, message: message)
        case let state where state.hasPrefix("08") || state.hasPrefix("57P"):
            return .failed(message: "The PostgreSQL database cannot be reached; try again.", retryable: true)
        default:
            return nil
        }
    }

    /// The first column of `Key (a, b)=(…)` in an error's detail.
    static func keyColumn(inDetail detail: String?) -> String? {
        guard let detail, let open = detail.range(of: "Key ("), let close = detail.range(of: ")=", range: open.upperBound..<detail.endIndex) else { return nil }
        let columns = detail[open.upperBound..<close.lowerBound]
        let first = columns.split(separator: ", ", maxSplits: 1).first.map(String.init)
        // A quoted name is spelt with its quotes doubled.
        guard let first, first.hasPrefix("\""), first.hasSuffix("\""), first.count >= 2 else { return first }
        return String(first.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }
}
