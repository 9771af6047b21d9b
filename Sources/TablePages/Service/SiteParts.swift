import ServiceLifecycle

/// Pages, readiness probes, index entries and services made elsewhere, added to a ``Site`` as
/// one feature: the pages of a database's tables with the database as their readiness probe, say.
///
///     let tables = SiteParts(pages: pages, readinessProbes: [store])
///     let site = Site(title: "Shop", features: [tables])
public struct SiteParts: SiteFeature {
    /// The pages, added after those of the features before.
    public var pages: PageRegistry
    /// What `/readyz` checks.
    public var readinessProbes: [any ReadinessProbe]
    /// Links on the index after the pages.
    public var entries: [IndexEntry]
    /// What runs beside the server (``Site/services``).
    public var services: [any Service]

    /// The parts given; each is empty by default.
    public init(pages: PageRegistry = PageRegistry(), readinessProbes: [any ReadinessProbe] = [], entries: [IndexEntry] = [], services: [any Service] = []) {
        self.pages = pages
        self.readinessProbes = readinessProbes
        self.entries = entries
        self.services = services
    }

    /// Adds the pages, probes, entries and services.
    public func add(to site: inout SiteBuilder) {
        pages.add(to: &site)
        site.readinessProbes += readinessProbes
        site.entries += entries
        site.services += services
    }
}
