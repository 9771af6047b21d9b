/// Which tables one change of a database touched, as far as its store can tell: what decides
/// which live queries re-run (``LiveQueryPages``). A query re-runs when the change touched a table
/// it reads (``QueryResult/tables``), or when either side is not known.
///
///     pages.onChange { change in if change.mayChange(readerOf: ["orders"]) { … } }
public struct ChangedTables: Sendable, Hashable {
    /// The tables changed, named as the store's query runner names the tables a query reads
    /// (``QueryResult/tables``); nil when the store cannot tell (a SQLite file written by any
    /// process, PostgreSQL polled, or listening again after a lost connection): every query re-runs.
    public var names: Set<String>?

    /// A change of the tables `names` (nil: of any table).
    public init(_ names: Set<String>?) {
        self.names = names
    }

    /// A change of tables not known: every query re-runs.
    public static let unknown = ChangedTables(nil)

    /// Whether a query that reads `tables` (nil: tables not known) may answer otherwise after this change.
    public func mayChange(readerOf tables: Set<String>?) -> Bool {
        guard let names, let tables else { return true }
        return !names.isDisjoint(with: tables)
    }
}
