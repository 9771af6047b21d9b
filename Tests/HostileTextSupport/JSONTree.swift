import Foundation

/// Any JSON value, decoded with `JSONDecoder`, for tests that compare decoded strings exactly.
///
/// Not `JSONSerialization`: on Linux it drops a U+FEFF at the start of a string and after an
/// escape sequence (`"\\\u{FEFF}x"` decodes to `"\\x"`), which would blame the renderer.
public enum JSONTree: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    /// Parses a JSON text.
    public static func parse(_ bytes: [UInt8]) throws -> JSONTree {
        try JSONDecoder().decode(JSONTree.self, from: Data(bytes))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONTree? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The element at `index` of an array.
    public subscript(index: Int) -> JSONTree? {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { nil }
    }

    /// The elements of an array; empty for anything else.
    public var elements: [JSONTree] {
        if case .array(let elements) = self { elements } else { [] }
    }

    /// A string's UTF-8, to compare without Swift's canonical equivalence ("e\u{301}" == "é"
    /// for `String`, not for bytes); nil for anything else.
    public var utf8: [UInt8]? {
        if case .string(let text) = self { Array(text.utf8) } else { nil }
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }
}
