import HostileTextSupport
import HTTPTestSupport
import MicroHTTP
import PropertyBased
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

@Suite("The site's title")
struct SiteTitleTests {
    /// The bar's link home, as every document writes it around the escaped title.
    static func bar(_ escapedTitle: String) -> String { #"<header class="tp-bar"><a class="tp-home" href="/">"# + escapedTitle + "</a>" }

    @Test("Without a title the site is called TablePages")
    func defaultTitle() async throws {
        try await withSite { server, site in
            #expect(site.title == "TablePages")
            let connection = try await TestConnection(port: server.port)
            let index = try await connection.request("GET", "/").text
            #expect(index.contains("<title>TablePages</title>"))
            #expect(index.contains(Self.bar("TablePages") + "</header>"))
            #expect(index.contains("<h1>TablePages</h1>"))
            let page = try await connection.request("GET", "/pages/items").text
            #expect(page.contains("<title>Items</title>"))
            #expect(page.contains(Self.bar("TablePages")))
            #expect(Self.title(ofIndexJSON: try await connection.request("GET", "/.json").body) == "TablePages")
        }
    }

    @Test("A site's title names the index, heads it, fills every page's bar and the index JSON, escaped")
    func customTitle() async throws {
        try await withSite(title: "Books <&> \"more\"") { server, _ in
            let escaped = "Books &lt;&amp;&gt; &quot;more&quot;"
            let connection = try await TestConnection(port: server.port)
            let index = try await connection.request("GET", "/").text
            #expect(index.contains("<title>\(escaped)</title>"))
            #expect(index.contains(Self.bar(escaped) + "</header>"))
            #expect(index.contains("<h1>\(escaped)</h1>"))
            #expect(!index.contains("TablePages"))
            let page = try await connection.request("GET", "/pages/items").text
            #expect(page.contains(Self.bar(escaped)))
            #expect(page.contains("<title>Items</title>"))
            #expect(!page.contains("TablePages"))
            #expect(Self.title(ofIndexJSON: try await connection.request("GET", "/.json").body) == "Books <&> \"more\"")
        }
    }

    /// The `title` member of the index's JSON, nil when the JSON does not parse or has no title string.
    static func title(ofIndexJSON bytes: [UInt8]) -> String? {
        guard case .string(let title)? = (try? JSONTree.parse(bytes))?["title"] else { return nil }
        return title
    }

    /// The text a browser reads from HTML escaped by either of the project's escapers, byte by
    /// byte (a combining mark after `&lt;` must not hide the reference); nil when a character that
    /// markup reserves stands unescaped.
    static func unescaped(_ html: [UInt8]) -> [UInt8]? {
        let references: [(String, String)] = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"),
                                              ("&#x2028;", "\u{2028}"), ("&#x2029;", "\u{2029}"), ("&amp;", "&")]
        var text: [UInt8] = []
        var rest = html[...]
        while let byte = rest.first {
            guard !Array("<>\"'".utf8).contains(byte) else { return nil }
            if byte == UInt8(ascii: "&"), let (reference, character) = references.first(where: { rest.starts(with: $0.0.utf8) }) {
                text += character.utf8
                rest = rest.dropFirst(reference.utf8.count)
            } else {
                text.append(byte)
                rest = rest.dropFirst()
            }
        }
        return text
    }

    @Test("Any title is escaped in the index's HTML and comes back whole from its JSON", .shrinking(false))
    func arbitraryTitles() async throws {
        let pages = TestPages.registry()
        await propertyCheckFailingOnThrow(input: HostileText.text) { title in
            let html = PageDocument.index(pages: pages.pages, siteTitle: title, account: .none).bodyBytes
            for (open, close) in [("<title>", "</title>"), ("<h1>", "</h1>"), (#"class="tp-home" href="/">"#, "</a>")] {
                #expect(ReferenceEscaping.enclosed(in: html, between: open, and: close).flatMap(Self.unescaped) == Array(title.utf8), "\(open)")
            }
            #expect(Self.title(ofIndexJSON: Array(PageIndexJSON.render(pages.pages, siteTitle: title).utf8)) == title)
        }
    }
}
