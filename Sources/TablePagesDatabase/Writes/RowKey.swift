import TableStore

/// The values that address one row of a table, in the order of its key: the rowid of a SQLite
/// rowid table (even when it has a primary key of another kind, which the pages sort by), else the
/// primary key's columns. The same key a table page's row id encodes (``TableWriter/key(forRowID:)``).
public struct RowKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's values, in the key's column order.
    public var values: [SQLValue]

    /// A key of these values.
    public init(_ values: [SQLValue]) {
        self.values = values
    }

    /// The values as a page's row id encodes them (for messages and logs).
    public var description: String {
        DatabaseValueCoding.encode(values)
    }
}
