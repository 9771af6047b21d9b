import TableStore

/// Why a ``TableWriter`` wrote nothing. Each is its own answer to the client
/// (``/MicroHTTP/HTTPErrorConvertible``): a batch refused for one row leaves every row unwritten.
public enum TableWriteError: Error, Sendable, Equatable {
    /// The rule of the database that refused a value.
    public enum Rule: String, Sendable, Hashable {
        /// `NOT NULL`.
        case notNull = "NOT NULL"
        /// A `CHECK` constraint.
        case check = "CHECK"
        /// `UNIQUE` or the primary key: the value is taken by another row.
        case unique = "UNIQUE"
        /// A foreign key: no row of the referenced table has the value.
        case foreignKey = "FOREIGN KEY"
        /// The column's type (a SQLite STRICT table, an INTEGER PRIMARY KEY, any PostgreSQL type).
        case type = "type"
    }

    /// 409: the row is not as the writer saw it (`seen`): someone changed it since, or deleted it
    /// (`current` nil). Nothing was written; `current` is the row now, to show beside the edit.
    case conflict(current: [String: SQLValue]?)
    /// 400: the database refused a value by one of its rules; `column` is the column it names,
    /// nil when it names none (a table-wide CHECK).
    case constraint(column: String?, rule: Rule, message: String)
    /// 400: the request itself is wrong for this table: an unknown column, an upsert without its key.
    case invalid(column: String?, message: String)
    /// 404: no row has the key.
    case notFound
    /// 404: the actor has no change of its own left to undo (``TableWriters/undoLast(by:)``).
    case nothingToUndo
    /// 403: the table cannot be written through TablePages (a view, a table without a key, a
    /// database served without `--writable`); `reason` says which, for people.
    case readOnly(reason: String)
    /// 503 when `retryable` (another writer held the database, the server was unreachable), else
    /// 500: the write failed for a reason that is not the client's; the log says more.
    case failed(message: String, retryable: Bool)
}
