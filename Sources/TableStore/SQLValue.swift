/// One value of a row or one argument of a statement, in the few types both stores share.
///
///     try session.execute("UPDATE todo SET title = ? WHERE id = ?", [.text("Pack"), .integer(3)])
///
/// SQLite has no boolean type (it stores 0 and 1); PostgreSQL does, so a boolean argument is
/// `.bool` and a boolean column may come back as either `.bool` or `.integer`
/// (``SQLRow/bool(_:)`` accepts both).
public enum SQLValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A whole number.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// Text.
    case text(String)
    /// A boolean (PostgreSQL's `boolean`; SQLite stores it as 0 or 1).
    case bool(Bool)
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral {
    /// `"text"` as `.text`.
    public init(stringLiteral value: String) { self = .text(value) }
    /// `3` as `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// `2.5` as `.real`.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// `true` as `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension SQLValue {
    /// `value` as text, or ``null`` when it is nil.
    public static func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }

    /// `value` as `.integer`.
    public static func integer(_ value: Int) -> SQLValue { .integer(Int64(value)) }
}
