/// What JSON output writes for a ``CellField`` when the field's display text is not its value:
/// numbers and null for scripts (`12.5`, `null` rather than `"12.5"`, `"NULL"`), or a string other
/// than the text shown (a blob's bytes, shown as their size).
///
///     CellField(name: "price", value: "12.50", json: .number(12.5))
///     CellField(name: "photo", value: "2,048 bytes", json: .string(base64))
///
/// Not `indirect`: its arrays already hold their elements on the heap, and an indirect enum boxes
/// every case, so each number and string of every row of a page cost an allocation of its own.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case integer(Int64)
    /// A number; one that is not finite is written as `null`, which JSON can hold.
    case number(Double)
    /// A string.
    case string(String)
    /// An array of values.
    case array([JSONValue])
    /// An object: its members in the order written.
    case object([JSONProperty])
}

extension JSONValue {
    /// `value` as `.integer(Int64(value))`: a count or an index at hand needs no `Int64(...)`.
    ///
    ///     JSONProperty(name: "total", value: .integer(todos.count))
    public static func integer(_ value: Int) -> JSONValue { .integer(Int64(value)) }
}
