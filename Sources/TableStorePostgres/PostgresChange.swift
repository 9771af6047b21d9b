import Foundation

/// What one notification on ``PostgresChangeClock/channel`` says: a table changed, and the
/// clock's version that change committed at.
///
///     let change = PostgresChange(payload: #"{"table":"todo","version":42}"#)
public struct PostgresChange: Sendable, Hashable, Decodable {
    /// The table a statement changed.
    public let table: String
    /// The version of the transaction that changed it.
    public let version: Int64

    /// Parses a trigger's payload; nil for one that is not (another program's NOTIFY on the
    /// channel), which is still taken as "something changed".
    public init?(payload: String) {
        guard let change = try? JSONDecoder().decode(PostgresChange.self, from: Data(payload.utf8)) else { return nil }
        self = change
    }
}

extension PostgresChange {
    /// A change of `table` at `version`.
    public init(table: String, version: Int64) {
        self.table = table
        self.version = version
    }
}
