/// An ordered list of HTTP header fields with case-insensitive lookup by name.
///
///     var headers = HTTPHeaders()
///     headers.add("Cache-Control", "no-cache")
///     headers["content-type"]   // nil
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public typealias Field = (name: String, value: String)

    private var fields: [Field]

    /// `Sec-Fetch-Site`: whose page a browser's request came from (`same-origin`, `same-site`,
    /// `cross-site`, `none`), which the page's scripts cannot set (Fetch Metadata).
    public static let fetchSite = "Sec-Fetch-Site"

    /// Creates an empty header list.
    public init() { fields = [] }

    /// Creates a header list from literal pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Appends a field, keeping any field of the same name (as `Set-Cookie` needs).
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Makes room for `count` fields without reallocating.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Replaces every field of this name with one field, or removes them all when `value` is nil.
    public mutating func replaceOrAdd(_ name: String, _ value: String?) {
        fields.removeAll { Self.namesMatch($0.name, name) }
        if let value { fields.append((name: name, value: value)) }
    }

    /// The first value of the field with this name, compared without regard to case.
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set { replaceOrAdd(name, newValue) }
    }

    /// Every value of the fields with this name, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Whether both lists hold the same fields in the same order: cheap when one was copied from
    /// the other, as string comparison checks for shared storage first.
    func hasSameFields(as other: HTTPHeaders) -> Bool {
        guard fields.count == other.fields.count else { return false }
        for (field, otherField) in zip(fields, other.fields) where field.name != otherField.name || field.value != otherField.value {
            return false
        }
        return true
    }

    // ASCII-only folding is right for header names (RFC 9110 tokens) and avoids Unicode case mapping per lookup.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        let lhs = lhs.utf8, rhs = rhs.utf8
        guard lhs.count == rhs.count else { return false }
        // Header names are short; compare the bytes in place when both strings are contiguous
        // (native strings always are), without building iterators.
        if let result = lhs.withContiguousStorageIfAvailable({ left in
            rhs.withContiguousStorageIfAvailable { right in
                for index in 0..<left.count where lowercased(left[index]) != lowercased(right[index]) {
                    return false
                }
                return true
            }
        }), let result {
            return result
        }
        return zip(lhs, rhs).allSatisfy { lowercased($0) == lowercased($1) }
    }

    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
