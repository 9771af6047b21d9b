import Logging
import MicroHTTP
import ServiceLifecycle

/// What a ``Site`` is being built from, handed to each ``SiteFeature`` in turn: the features add
/// their parts, then the site builds its own routes over the pages and adds the features' routes
/// after them, in the order the features came.
public struct SiteBuilder {
    /// The site's name, for the bar of a feature's pages.
    public let title: String
    /// Who requests act for and what they may do: the site's own, for a feature's routes.
    public let access: AccessControl
    /// The site's logger.
    public let logger: Logger
    /// The pages so far, in index order, and the files they use.
    public var pages = PageRegistry()
    /// The site's pages while it runs, starting with ``pages`` as the features leave them: a
    /// feature that adds pages later (a table created while the site runs) keeps it.
    public let livePages = SitePages()
    /// What `/readyz` checks besides the site's own database lanes.
    public var readinessProbes: [any ReadinessProbe] = []
    /// Links on the index after the pages.
    public var entries: [IndexEntry] = []
    /// Services to run beside the server in its `ServiceGroup` (``Site/services``): started
    /// before it, shut down gracefully after it.
    public var services: [any Service] = []
    /// The features' routes, added after the site's own.
    private(set) var routes: [@Sendable (inout Router) -> Void] = []

    init(title: String, access: AccessControl, logger: Logger) {
        self.title = title
        self.access = access
        self.logger = logger
    }

    /// Adds routes, after the site's own (which they never shadow) and those of the features
    /// added before.
    public mutating func addRoutes(_ add: @escaping @Sendable (inout Router) -> Void) {
        routes.append(add)
    }
}
