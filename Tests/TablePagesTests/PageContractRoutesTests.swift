import Foundation
import MicroHTTP
import TableKit
@testable import TablePagesTestSupport
import Testing
@testable import TablePages

/// The renderer writes URLs from ``PageContract`` and the service registers its patterns; these
/// tests route what a page really links to, so a change on one side alone fails here.
@Suite("Page contract routes")
struct PageContractRoutesTests {
    /// `(method, url)` of every link and form in `html`, entities decoded as a browser would.
    static func links(in html: String) -> [(method: HTTPMethod, url: String)] {
        var links: [(HTTPMethod, String)] = []
        for (attribute, method) in [("href=\"", HTTPMethod.get), ("action=\"", HTTPMethod.post)] {
            var rest = html[...]
            while let start = rest.range(of: attribute) {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                links.append((method, decodeEntities(String(rest[..<end]))))
                rest = rest[end...]
            }
        }
        return links
    }

    static func decodeEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The request the server would make of `url`: its path split into decoded segments and its query.
    static func request(_ method: HTTPMethod, _ url: String) throws -> Request {
        let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let segments = try path.split(separator: "/").map { try #require(PercentEncoding.decode($0)) }
        let query = try (parts.count > 1 ? parts[1].split(separator: "&") : []).map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (name: try #require(PercentEncoding.decode(pair[0])), value: try #require(PercentEncoding.decode(pair.count > 1 ? pair[1] : "")))
        }
        return Request(method: method, path: path, pathSegments: segments, queryItems: query)
    }

    @Test("Every URL a page links to or posts to is answered by a registered page route")
    func everyRenderedURLHasARoute() async throws {
        let table = TableAdapter(root: EveryFeatureItems())
        let context = RenderContext(basePath: PageContract.pagePath(named: "every page"), variantQuery: "layout=a%20b", rowLimit: 4)
        var out = OutputBuffer()
        TableRenderer(table: table, context: context).renderPage(as: .html, into: &out)
        let html = out.string
        let site = Site(pages: PageRegistry())
        var answered: Set<String> = []
        let links = Self.links(in: html)
        #expect(links.count >= 18)
        for (method, url) in links {
            if url.hasPrefix("#") {
                // The section index points at an element of the same page.
                #expect(html.contains("id=\"\(url.dropFirst())\""), "\(url) names no element")
                continue
            }
            let route = await site.router.respond(to: try Self.request(method, url)).route
            #expect(route != nil, "\(method) \(url) matches no route")
            if let route { answered.insert(route) }
        }
        #expect(answered == [PageContract.selectPattern, PageContract.rowPattern, PageContract.actionPattern,
                             PageContract.movePattern, PageContract.insertPattern, PageContract.sectionPattern])
    }

    @Test("The routes the pages register are the contract's patterns")
    func patternsAreTheDocumentedOnes() {
        #expect(PageContract.pagePattern == "/pages/:page")
        #expect(PageContract.sectionPattern == "/pages/:page/sections/:section")
        #expect(PageContract.rowPattern == "/pages/:page/rows/:row")
        #expect(PageContract.eventsPattern == "/pages/:page/events")
        #expect(PageContract.selectPattern == "/pages/:page/rows/:row/select")
        #expect(PageContract.actionPattern == "/pages/:page/rows/:row/actions/:action")
        #expect(PageContract.movePattern == "/pages/:page/rows/:row/move")
        #expect(PageContract.insertPattern == "/pages/:page/sections/:section/rows")
        #expect(PageContract.prefetchPattern == "/pages/:page/prefetch")
    }

    @Test("Browsers get the site's styled error page; MicroHTTP's default links nothing")
    func errorPageIsTheSites() async throws {
        let site = Site(pages: PageRegistry())
        let page = String(decoding: await site.router.respond(to: try Self.request(.get, "/nowhere")).bodyBytes, as: UTF8.self)
        #expect(page.contains(#"<link rel="stylesheet" href="/public/table-pages.css">"#))
        #expect(page.contains("<h1>404 Not Found</h1><p>No resource at /nowhere.</p>"))
        let plain = Response.error(404, "<x>", json: false)
        #expect(plain.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(String(decoding: plain.bodyBytes, as: UTF8.self) == "404 Not Found\n\n<x>\n")
    }
}
