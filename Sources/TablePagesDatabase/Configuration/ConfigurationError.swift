import Foundation

/// What is wrong with a configuration file, and where: the file's path, then the key's path
/// (`queries.by_status.sql`) or the line and column of a JSON syntax error.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// The key's path, or `line L, column C`; nil for the file as a whole.
    public let location: String?
    /// What is wrong.
    public let problem: String

    /// An error at `location` of the file at `path`.
    public init(path: String, location: String?, problem: String) {
        self.path = path
        self.location = location
        self.problem = problem
    }

    /// `--config FILE: location: problem`.
    public var description: String {
        "--config \(path): " + (location.map { $0 + ": " } ?? "") + problem
    }

    /// The error for a `DecodingError` of the file's `data`.
    init(decoding error: DecodingError, path: String, data: Data) {
        func keyPath(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String? {
            let names = (codingPath + (key.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? nil : names.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: path, location: keyPath(context.codingPath, key), problem: "missing (it is required)")
        case .typeMismatch(let type, let context):
            self.init(path: path, location: keyPath(context.codingPath), problem: "should be \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(path: path, location: keyPath(context.codingPath), problem: "should be \(Self.describe(type)), not null")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // JSON that does not parse: JSONDecoder does not say where, JSONSerialization does
            // (by line and column, or a byte offset, which is turned into them).
            var found: String?
            do { _ = try JSONSerialization.jsonObject(with: data) } catch { found = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String }
            self.init(path: path, location: found.flatMap { Self.lineAndColumn(in: $0, data: data) }, problem: "is not valid JSON (\(found ?? context.debugDescription))")
        case .dataCorrupted(let context):
            self.init(path: path, location: keyPath(context.codingPath), problem: context.debugDescription)
        @unknown default:
            self.init(path: path, location: nil, problem: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        default: "an object"
        }
    }

    /// `line L, column C` from a parser's message that names them, or that names a byte offset
    /// ("at offset N", "character N") in `data`; nil when it names neither.
    static func lineAndColumn(in message: String, data: Data) -> String? {
        if let match = message.firstMatch(of: /line (\d+), column (\d+)/) { return "line \(match.1), column \(match.2)" }
        guard let match = message.firstMatch(of: /(?:offset|character) (\d+)/), let offset = Int(match.1) else { return nil }
        let before = data.prefix(offset)
        let line = before.filter { $0 == 0x0a }.count + 1
        let column = before.count - (before.lastIndex(of: 0x0a).map { $0 + 1 } ?? 0) + 1
        return "line \(line), column \(column)"
    }
}
