/// A path pattern such as `/pages/:page/rows/:row` or `/public/*path`.
///
/// `:name` captures one decoded segment; `:name.ext` captures a segment that ends in `.ext`,
/// without it (`/pages/:page.csv` matches `/pages/todo.csv` with `page` = `todo`); a final `*name`
/// captures the rest of the path, its decoded segments joined by `/`.
public struct RoutePattern: Sendable, CustomStringConvertible {
    enum Component: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// A parameter followed by a literal suffix that starts with a dot.
        case suffixedParameter(String, suffix: String)
        case remainder(String)
    }

    let components: [Component]

    /// The pattern as written, normalised. Kept rather than computed: every response a route
    /// answers carries it (``Response/route``).
    public let description: String

    /// Parses a pattern; segments are split on `/` and empty segments ignored.
    public init(_ pattern: String) {
        let components: [Component] = pattern.split(separator: "/").map { segment in
            if segment.hasPrefix(":") {
                let name = segment.dropFirst()
                guard let dot = name.firstIndex(of: ".") else { return .parameter(String(name)) }
                return .suffixedParameter(String(name[..<dot]), suffix: String(name[dot...]))
            }
            if segment.hasPrefix("*") { return .remainder(String(segment.dropFirst())) }
            return .literal(String(segment))
        }
        self.components = components
        description = "/" + components.map { component in
            switch component {
            case .literal(let text): text
            case .parameter(let name): ":" + name
            case .suffixedParameter(let name, let suffix): ":" + name + suffix
            case .remainder(let name): "*" + name
            }
        }.joined(separator: "/")
    }

    /// Whether the pattern ends in a `*name` that captures the rest of the path.
    var capturesRemainder: Bool {
        if case .remainder = components.last { return true }
        return false
    }

    /// The captured parameters when `segments` (decoded) match, else nil.
    func match(_ segments: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (position, component) in components.enumerated() {
            switch component {
            case .remainder(let name):
                guard position < segments.count else { return nil }
                // One segment left (a file in the folder itself) needs no new string.
                parameters[name] = position == segments.count - 1 ? segments[position] : segments[position...].joined(separator: "/")
                return parameters
            case .literal(let text):
                guard position < segments.count, segments[position] == text else { return nil }
            case .parameter(let name):
                guard position < segments.count else { return nil }
                parameters[name] = segments[position]
            case .suffixedParameter(let name, let suffix):
                guard position < segments.count, segments[position].utf8.count > suffix.utf8.count,
                      segments[position].hasSuffix(suffix) else { return nil }
                parameters[name] = String(segments[position].dropLast(suffix.count))
            }
        }
        return segments.count == components.count ? parameters : nil
    }
}
