import GRDB
import TableStore
import TablePages

extension DatabaseError: DatabaseWriteError {
    /// True for `SQLITE_BUSY` and `SQLITE_LOCKED`: another connection held the database.
    public var isBusyWithAnotherWriter: Bool {
        resultCode == .SQLITE_BUSY || resultCode == .SQLITE_LOCKED
    }

    /// `SQLite error 19 (constraint failed)`: the result code's own text names no table, column
    /// or file, unlike the error's message, SQL and arguments, which stay in the server's log.
    public var summaryForClients: String {
        "SQLite error \(resultCode)"
    }
}
