/// What an insert does with a row whose key (or another unique column) is already taken, as
/// Datasette's insert API names the choices.
public enum InsertConflict: String, Sendable, Hashable {
    /// Refuse the whole batch (the default): a UNIQUE ``TableWriteError/constraint(column:rule:message:)``.
    case fail
    /// Skip that row and write the others (SQLite's `INSERT OR IGNORE`; PostgreSQL's `ON CONFLICT DO NOTHING`).
    case ignore
    /// Replace the row that holds the key: columns the new row leaves out get their defaults. In
    /// SQLite, every other row the new one clashes with on a UNIQUE column is removed too; the
    /// audit trail keeps each as a delete.
    case replace
}
