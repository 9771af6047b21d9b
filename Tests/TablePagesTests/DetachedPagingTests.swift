import Foundation
import HTTPTestSupport
import MicroHTTP
import TableKit
@testable import TablePagesTestSupport
import Testing
@testable import TablePages

@Suite("Later pages read away from the variant's host")
struct DetachedPagingTests {
    /// `paged`: one row `a` in section `items`; the page after `a` comes from a pager that waits
    /// (up to 2 s) until `?together=` of its reads run at once, then names whether they met and its lane.
    final class MeetingPages: TestItems, PageSource {
        let together: Int
        let readers: BuildCounter

        init(together: Int, readers: BuildCounter) {
            self.together = together
            self.readers = readers
            super.init([TestItem(id: "a", title: "first")])
        }

        var rowPager: (any RowPager)? { Pager(together: together, readers: readers) }

        struct Pager: RowPager {
            let together: Int
            let readers: BuildCounter

            func root(ofRowsIn section: SectionID, after row: RowID?, limit: Int) throws -> any TableRoot {
                guard section == "items" else { throw TableError.unknownSection(section) }
                if let row, row != "a" { throw TableError.unknownRow(row) }
                let running = readers.increment()
                defer { running.finish() }
                var waited = 0
                while readers.running < together, waited < 2000 {
                    usleep(10_000)
                    waited += 10
                }
                let met = readers.running >= together ? "together" : "alone"
                usleep(100_000)  // so the others see this one running too
                let lane = DatabaseLane.currentIndex.map { "lane \($0)" } ?? "off the lanes"
                return TestItems([TestItem(id: "b", title: "\(met) on \(lane)")])
            }
        }
    }

    static func registry(readers: BuildCounter) -> PageRegistry {
        var registry = PageRegistry()
        registry.register(PageDefinition(name: "paged", title: "Paged", resolveVariant: { query in
            ["together": query["together"] ?? "2"]
        }) { variant in
            MeetingPages(together: Int(variant["together"] ?? "") ?? 2, readers: readers)
        })
        return registry
    }

    /// With `lanes` database lanes: makes the variant's host, then asks for the page after `a`
    /// twice at once (once by the section's URL, once by the page's), and returns both answers.
    static func twoPagesAtOnce(lanes: Int, readers: BuildCounter) async throws -> [TestResponse] {
        var settings = LiveSettings()
        settings.databaseConcurrency = lanes
        return try await withSite(pages: registry(readers: readers), settings: settings) { server, _ in
            // The variant's host is made first, so both pages below are of that one host.
            #expect(try await TestConnection(port: server.port).request("GET", "/pages/paged.json").status == 200)
            async let first = TestConnection(port: server.port).request("GET", "/pages/paged/sections/items.json?after=a", timeout: .seconds(30))
            async let second = TestConnection(port: server.port).request("GET", "/pages/paged.json?after=a", timeout: .seconds(30))
            return [try await first, try await second]
        }
    }

    @Test func pagesOfOneVariantAreReadSideBySideOnTheLanes() async throws {
        let readers = BuildCounter()
        // On the host's own lane the two would run one after the other and never meet.
        let pages = try await Self.twoPagesAtOnce(lanes: 2, readers: readers)
        for page in pages {
            #expect(page.status == 200)
            #expect(page.text.contains(#""id":"b""#), "\(page.text)")
            #expect(page.text.contains("together on lane "), "\(page.text)")
        }
        #expect(readers.count == 2)
        // Both came from the pager, none from the host's `root(ofRowsIn:)`.
        #expect(pages.allSatisfy { !$0.text.contains("read on the host") })
    }

    @Test func aDetachedReadStaysWithinTheLanes() async throws {
        // One lane: the second read runs only once the first is done, so neither meets another.
        for page in try await Self.twoPagesAtOnce(lanes: 1, readers: BuildCounter()) {
            #expect(page.text.contains("alone on lane 0"), "\(page.text)")
        }
    }

    @Test("The page's URL with after (or _next) answers from the lane as the section's URL does: the same bytes in JSON and HTML, and a 400 for a row the pager does not find")
    func thePageURLAnswersAsTheSectionURL() async throws {
        var settings = LiveSettings()
        settings.databaseConcurrency = 1  // so both answers name the same lane
        try await withSite(pages: Self.registry(readers: BuildCounter()), settings: settings) { server, _ in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/pages/paged.json?together=1").status == 200)
            for suffix in [".json", ""] {
                let section = try await connection.request("GET", "/pages/paged/sections/items\(suffix)?together=1&after=a")
                let page = try await connection.request("GET", "/pages/paged\(suffix)?together=1&_next=a")
                #expect(section.status == 200 && page.status == 200)
                #expect(page.text.contains("together on lane 0"), "\(page.text)")
                #expect(page.body == section.body)
                #expect(page.header("Content-Type") == section.header("Content-Type"))
            }
            let missing = try await connection.request("GET", "/pages/paged.json?together=1&after=missing")
            #expect(missing.status == 400, "\(missing.text)")
            #expect(missing.text.contains("missing"))
        }
    }

    @Test func aDetachedSourceStillReportsAnUnknownSection() async throws {
        try await withSite(pages: Self.registry(readers: BuildCounter())) { server, _ in
            let page = try await TestConnection(port: server.port).request("GET", "/pages/paged/sections/nope.json?after=a")
            #expect(page.status == 404, "\(page.text)")
        }
    }
}
