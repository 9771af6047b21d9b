/// An extra named value for custom cell kinds, beyond the standard provider fields.
///
///     CellField(name: "price", value: "12.50")
///     CellField(name: "price", value: "12.50", json: .number(12.5))
public struct CellField: Hashable, Sendable {
    /// The field name; used as the JSON key and as a CSS class suffix.
    public var name: String
    /// The field's text.
    public var value: String
    /// What JSON output writes instead of `value` as a string, when it differs from the text shown (a
    /// number, null, a blob's bytes); nil writes `value` as a string.
    public var json: JSONValue?

    /// Creates a field.
    public init(name: String, value: String, json: JSONValue? = nil) {
        self.name = name
        self.value = value
        self.json = json
    }
}
