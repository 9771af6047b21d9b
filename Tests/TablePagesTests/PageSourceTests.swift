import TableKit
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

/// A page's abilities are what its root declares (``PageSource``): asked directly, "none" unless
/// implemented, and refused where the page does not route to them.
@Suite("Page abilities declared by the root")
struct PageSourceTests {
    /// A download of one fixed chunk.
    struct OneChunk: RowExporter {
        func nextChunk() throws -> [UInt8]? { nil }
    }

    /// An observed list that also offers a download, by overriding ``ObservedSource/exporter(as:)``.
    final class DownloadableTitles: ObservedSource<[String]> {
        override func exporter(as format: ExportFormat) throws -> (any RowExporter)? {
            format == .csv ? OneChunk() : nil
        }
    }

    /// A section that declares page abilities, which only a root's are routed to.
    final class ExportingSection: StaticSection, PageSource {
        func exporter(as format: ExportFormat) throws -> (any RowExporter)? { OneChunk() }
    }

    private func host(_ definition: PageDefinition) async throws -> PageHost {
        var registry = PageRegistry()
        registry.register(definition)
        let hosts = LiveBoundsFixtures.hosts(registry, settings: LiveSettings())
        return try await LiveBoundsFixtures.host(hosts, [:], page: definition.name)
    }

    @Test("a subclass of an observed source that overrides an ability is asked for it")
    func overriddenAbilityIsAsked() async throws {
        let store = MemoryStore(["a"])
        let page = try await host(PageDefinition(name: "titles", title: "Titles") { _ in
            DownloadableTitles(store, fetch: { $0 })
        })
        #expect(try await page.exporter(as: .csv) != nil)
        #expect(try await page.exporter(as: .ndjson) == nil)
    }

    @Test("a plain root has no abilities: no download, no pager, the live table shows its rows")
    func plainRootHasNone() async throws {
        let page = try await host(PageDefinition(name: "plain", title: "Plain") { _ in
            TestItems([TestItem(id: "a", title: "first")])
        })
        #expect(try await page.exporter(as: .csv) == nil)
        #expect(page.detachedSection("items", after: nil, limit: 10, as: .json) == nil)
        #expect(String(decoding: try await page.renderRow("a", as: .json), as: UTF8.self).contains("first"))
    }

    @Test("a section below the root that declares page abilities stops the page's host, named in the error")
    func misplacedAbilitiesAreAnError() async throws {
        let definition = PageDefinition(name: "misplaced", title: "Misplaced") { _ in
            CascadingRootTableDelegate(childDelegates: [ExportingSection(id: "rows")])
        }
        let error = await #expect(throws: PageSourceMisplaced.self) { try await host(definition) }
        #expect(error?.page == "misplaced")
        #expect(error?.description.contains("ExportingSection") == true)
    }
}
