/// Any key of a configuration file's object, so that unknown keys can be named in an error.
struct ConfigurationKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// Throws a `DecodingError` at the first key of `container` not in `known`.
    static func refuseUnknown(in container: KeyedDecodingContainer<ConfigurationKey>, known: [String]) throws {
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "unknown key \u{201C}\(key.stringValue)\u{201D} (known: \(known.joined(separator: ", ")))"
            )
        }
    }
}
