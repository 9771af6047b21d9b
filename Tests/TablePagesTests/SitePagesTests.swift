import Logging
@testable import TablePagesTestSupport
import Testing
@testable import TablePages

/// The site's one registry while it runs: a page registered later is found at once, and one
/// registered in place of another drops every host made from the definition it replaces.
@Suite("A site's pages while it runs")
struct SitePagesTests {
    @Test("A page replaced while one of its variants is being built keeps no host of the old definition")
    func replacedWhileBuilding() async throws {
        var registry = PageRegistry()
        registry.register(BlockingPages.slow())
        let pages = SitePages(registry)
        var logger = Logger(label: "SitePagesTests")
        logger.logLevel = .critical
        let hosts = PageHosts(pages: pages, settings: LiveSettings(), logger: logger)
        let old = try #require(pages.registry.page(named: "slow"))
        let variant = try old.variant(for: ["ms": "400"]).get()
        async let built = hosts.host(for: variant, definition: old)
        try await Task.sleep(for: .milliseconds(100))
        pages.register(BlockingPages.slow())
        _ = try await built
        #expect(hosts.all.isEmpty, "the host built from the replaced definition is served to its request, never kept")

        let new = try #require(pages.registry.page(named: "slow"))
        _ = try await hosts.host(for: try new.variant(for: ["ms": "0"]).get(), definition: new)
        #expect(hosts.all.count == 1)
        pages.register(try #require(LiveBoundsFixtures.registry(pages: ["other"]).page(named: "other")))
        #expect(hosts.all.count == 1 && pages.registry.page(named: "other") != nil, "a new page replaces nothing")
        pages.register(BlockingPages.slow())
        #expect(hosts.all.isEmpty, "replacing the page drops its variants")
    }
}
