/// One part of a ``Site`` — the pages of a database, its SQL page, Datasette's URLs — that adds
/// everything it brings in one call: pages and their files, readiness probes, index entries,
/// services to run beside the server, and routes.
///
///     struct Greeting: SiteFeature {
///         func add(to site: inout SiteBuilder) {
///             site.addRoutes { router in
///                 router.immediate(.get, "/hello") { _ in .text("Hello") }
///             }
///         }
///     }
///     let site = Site(title: "My library", features: [pages, Greeting()])
///
/// A ``PageRegistry`` is one: it adds its pages and their files.
public protocol SiteFeature: Sendable {
    /// Adds this feature's parts to the site being built.
    func add(to site: inout SiteBuilder)
}
