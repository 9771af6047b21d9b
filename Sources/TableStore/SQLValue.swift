import Foundation

/// One value of a row or one argument of a statement: SQLite's five storage classes, and
/// PostgreSQL's booleans. Both stores, the example pages and the database pages speak it.
///
///     try session.execute("UPDATE todo SET title = ? WHERE id = ?", [.text("Pack"), .integer(3)])
///
/// SQLite has no boolean type (it stores 0 and 1); PostgreSQL does, so a boolean argument is
/// `.bool` and a boolean column may come back as either `.bool` or `.integer`
/// (``SQLRow/bool(_:)`` accepts both).
///
/// Equality is SQL's for numbers: the integer 1 equals the real 1.0 (and they hash alike), as
/// SQLite compares them; a real NaN equals nothing. Text compares as Swift strings, blobs byte by
/// byte, and values of other classes are unequal.
public enum SQLValue: Sendable {
    /// SQL NULL.
    case null
    /// A whole number.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// Text.
    case text(String)
    /// Bytes (SQLite's BLOB, PostgreSQL's `bytea`).
    case blob(Data)
    /// A boolean (PostgreSQL's `boolean`; SQLite stores it as 0 or 1).
    case bool(Bool)
}

extension SQLValue: Hashable {
    /// Whether the two are the same SQL value; see ``SQLValue`` for numbers.
    public static func == (lhs: SQLValue, rhs: SQLValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.integer(left), .integer(right)): left == right
        case let (.real(left), .real(right)): left == right
        case let (.integer(left), .real(right)): Int64(exactly: right) == left
        case let (.real(left), .integer(right)): Int64(exactly: left) == right
        case let (.text(left), .text(right)): left == right
        case let (.blob(left), .blob(right)): left == right
        case let (.bool(left), .bool(right)): left == right
        default: false
        }
    }

    /// Hashes a real that is a whole number as that integer, so that equal values hash alike.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .integer(let number):
            hasher.combine(1 as UInt8)
            hasher.combine(number)
        case .real(let number):
            if let whole = Int64(exactly: number) {
                hasher.combine(1 as UInt8)
                hasher.combine(whole)
            } else {
                hasher.combine(2 as UInt8)
                hasher.combine(number)
            }
        case .text(let text):
            hasher.combine(3 as UInt8)
            hasher.combine(text)
        case .blob(let bytes):
            hasher.combine(4 as UInt8)
            hasher.combine(bytes)
        case .bool(let flag):
            hasher.combine(5 as UInt8)
            hasher.combine(flag)
        }
    }
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

    /// Whether the value is SQL NULL.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The value as an `Int` when it is an integer, a real that is a whole number in range, or a
    /// boolean (0 or 1); nil otherwise (NULL, text, blobs).
    public var intValue: Int? {
        switch self {
        case .integer(let number): Int(exactly: number)
        case .real(let number): Int(exactly: number)
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }

    /// The value as text when it is text, or a blob of valid UTF-8; nil otherwise.
    public var stringValue: String? {
        switch self {
        case .text(let text): text
        case .blob(let bytes): String(bytes: bytes, encoding: .utf8)
        default: nil
        }
    }
}
