import MicroHTTP
import TableKit

/// A page in one shape, chosen by query parameters (e.g. `?layout=sections`); each variant has its
/// own table, shared by everyone who views that variant.
public struct PageVariant: Hashable, Sendable {
    /// The page's name.
    public let page: String
    /// Every variant parameter with its chosen value.
    public let parameters: [String: String]
    let defaults: [String: String]

    /// The value chosen for a variant parameter.
    public subscript(parameter: String) -> String? { parameters[parameter] }

    /// The query string that selects this variant, without `?`, listing only values that differ from
    /// the defaults, sorted so equal variants give equal URLs; empty for the default variant.
    public var query: String {
        parameters.filter { defaults[$0.key] != $0.value }
            .sorted { $0.key < $1.key }
            .map { PercentEncoding.encode($0.key) + "=" + PercentEncoding.encode($0.value) }
            .joined(separator: "&")
    }

    /// The page's path, e.g. `/pages/todo`.
    public var basePath: String { PageContract.pagePath(named: page) }

    /// The page's URL with this variant's query.
    public var url: String { query.isEmpty ? basePath : basePath + "?" + query }
}
