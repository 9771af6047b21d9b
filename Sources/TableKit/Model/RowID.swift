/// The stable identifier of a row, taken from the data (a primary key, a slug…).
///
/// Unlike an ``TableIndexPath``, a row identifier survives inserts and deletes around the row; it is
/// what DOM ids, URLs and patches use.
///
///     let id: RowID = "todo-17"
public struct RowID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The identifier's text, exactly as it appears in URLs (before percent-encoding) and markup.
    public var rawValue: String

    /// Creates a row identifier from its text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a row identifier from a string literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The identifier's text.
    public var description: String { rawValue }
}
