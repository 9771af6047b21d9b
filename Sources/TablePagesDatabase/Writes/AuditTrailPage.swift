import TablePages

/// The audit trail of a database's writes as one ``/TablePages/SiteFeature``: its page
/// (``AuditPages``, at `/-/audit`) for the actors who may read it. Writers that keep no trail (a
/// database served read-only) add nothing.
///
///     let tables = try DatabaseTables(store: store, audit: audit)
///     let site = Site(title: "Shop", features: [tables, AuditTrailPage(writers: tables.writers)])
public struct AuditTrailPage: SiteFeature {
    /// The writers whose trail the page shows.
    public let writers: TableWriters

    /// The page of `writers`' audit trail.
    public init(writers: TableWriters) {
        self.writers = writers
    }

    /// Adds `/-/audit` and `/-/audit.json`, answered with the site's access control.
    public func add(to site: inout SiteBuilder) {
        guard let page = AuditPages(writers: writers, siteTitle: site.title, accessControl: site.access, logger: site.logger) else { return }
        site.addRoutes { router in page.register(on: &router) }
    }
}
