/// One named member of a JSON object, for ``JSONValue/object(_:)`` and a table's own members
/// (``TableDataSource/jsonPropertiesForTable()``); kept in order, so output is stable.
///
///     JSONProperty(name: "facets", value: .object([JSONProperty(name: "category", value: .array([]))]))
public struct JSONProperty: Hashable, Sendable {
    /// The member's name.
    public var name: String
    /// The member's value.
    public var value: JSONValue

    /// Creates a member.
    public init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
    }
}
