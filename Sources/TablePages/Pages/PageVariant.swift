import MicroHTTP
import TableKit

/// A page in one shape, chosen by query parameters (e.g. `?layout=sections`); each variant has its
/// own table, shared by everyone who views that variant. A per-viewer page's variant also names
/// its viewer, so each viewer has a table, a render cache entry and an event stream of their own.
public struct PageVariant: Hashable, Sendable {
    /// The page's name.
    public let page: String
    /// Every variant parameter with its chosen value.
    public let parameters: [String: String]
    let defaults: [String: String]
    /// The actor whose table this is, for a per-viewer page (``PageDefinition/perViewer``); nil
    /// otherwise. Variants compare by the viewer's ``Actor/id`` only, so a viewer's table stays
    /// theirs however their other details change.
    public let viewer: Actor?
    // Hashed once: a variant keys the hosts and the render cache, and the cached-page path on the
    // event thread looks it up in both for every request; hashing `parameters` anew each time
    // seeds a hasher per element.
    private let hashCode: Int

    init(page: String, parameters: [String: String], defaults: [String: String], viewer: Actor? = nil) {
        self.page = page
        self.parameters = parameters
        self.defaults = defaults
        self.viewer = viewer
        var hasher = Hasher()
        hasher.combine(page)
        hasher.combine(parameters)
        hasher.combine(viewer?.id)
        hashCode = hasher.finalize()
    }

    /// Equal page, parameters and viewer id.
    public static func == (lhs: PageVariant, rhs: PageVariant) -> Bool {
        lhs.hashCode == rhs.hashCode && lhs.page == rhs.page && lhs.parameters == rhs.parameters && lhs.defaults == rhs.defaults && lhs.viewer?.id == rhs.viewer?.id
    }

    /// Hashes what `==` compares (page, parameters and viewer id, hashed once when made).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(hashCode)
    }

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

    /// This variant without `parameter`: the page's variant that a variant of one of its rows
    /// (``PageDefinition/rowVariantParameter``) belongs to.
    func removing(_ parameter: String) -> PageVariant {
        var kept = parameters
        kept[parameter] = nil
        return PageVariant(page: page, parameters: kept, defaults: defaults, viewer: viewer)
    }

    /// The page's path, e.g. `/pages/todo`.
    public var basePath: String { PageContract.pagePath(named: page) }

    /// The page's URL with this variant's query.
    public var url: String { query.isEmpty ? basePath : basePath + "?" + query }
}
