/// An extra named value for custom cell kinds, beyond the standard provider fields.
///
///     CellField(name: "price", value: "12.50")
public struct CellField: Hashable, Sendable {
    /// The field name; used as the JSON key and as a CSS class suffix.
    public var name: String
    /// The field's text.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
