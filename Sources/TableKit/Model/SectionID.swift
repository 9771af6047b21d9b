/// The stable identifier of a section, taken from the data (a category key, a group name…).
///
/// Section identifiers address sections across renders in DOM ids, URLs and patches.
///
///     let id: SectionID = "open"
public struct SectionID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The identifier's text, exactly as it appears in URLs (before percent-encoding) and markup.
    public var rawValue: String

    /// Creates a section identifier from its text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a section identifier from a string literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The identifier's text.
    public var description: String { rawValue }
}
