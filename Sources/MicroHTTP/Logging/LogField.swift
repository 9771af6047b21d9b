/// A field the access log's line for a response carries after its own (`actor=…` in text,
/// `"actor":…` in JSON): what the application knows of the request that the server does not.
public struct LogField: Sendable, Equatable {
    /// The field's name, e.g. `actor`.
    public let name: String
    /// Its value.
    public let value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
