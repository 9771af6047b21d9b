import TableKit
import Testing

@Suite("Rows that are links, and delegate answers the table cannot honour")
struct RowLinkTests {
    private func linkedHarness() -> TableHarness {
        TableHarness([("s", ["a", "b"])]) { source in
            source.links = ["a": "/pages/product?id=3&x=<y>"]
        }
    }

    @Test("A linked row is an <a href> for viewers with and without controls; the others keep their select button")
    func linkedRowIsAPlainLinkForEveryViewer() throws {
        let harness = linkedHarness()
        for showsControls in [true, false] {
            let renderer = TableRenderer(table: harness.table, context: RenderContext(basePath: "/pages/p", showsControls: showsControls))
            let linked = try renderer.row("a", .html)
            #expect(linked.contains(#"<a class="tk-cell tk-link" href="/pages/product?id=3&amp;x=&lt;y&gt;">"#))
            #expect(linked.contains("</a></div></div>"))
            #expect(!linked.contains("tk-select\""), "a link replaces the select form")
            let plain = try renderer.row("b", .html)
            #expect(plain.contains("tk-select\"") == showsControls, "only viewers who may act get a select button")
            #expect(!plain.contains("<a "))
        }
    }

    @Test("JSON names the row's link; rows without one have no link member")
    func jsonNamesTheLink() throws {
        let renderer = TableRenderer(table: linkedHarness().table, context: RenderContext(basePath: "/pages/p"))
        let json = try renderer.row("a", .json)
        #expect(json.contains(#""link":"/pages/product?id=3\u0026x=\u003cy\u003e""#), Comment(rawValue: json))
        #expect(try !renderer.row("b", .json).contains(#""link""#))
    }

    @Test("A link elsewhere than this site is dropped and reported", arguments: ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)", "/a\nb"])
    func offSiteLinkIsDroppedAndReported(_ outside: String) throws {
        let source = FixtureDataSource([("s", ["a"])])
        source.links = ["a": outside]
        var reported: [IgnoredDelegateAnswer] = []
        let table = TableAdapter(renderingOnce: source)
        table.onIgnoredAnswer = { reported.append($0) }
        let html = try TableRenderer(table: table, context: RenderContext(basePath: "/pages/p")).row("a", .html)
        #expect(!html.contains("<a "))
        #expect(reported == [.linkOffSite(location: outside, row: "a")])
    }

    @Test("show() from a row action leads nowhere and is reported; from didSelectRow it leads there")
    func showOutsideSelectionIsReported() throws {
        let harness = TableHarness([("s", ["a"])]) { $0.actions = [RowAction(name: "open", title: "Open")] }
        var reported: [IgnoredDelegateAnswer] = []
        harness.table.onIgnoredAnswer = { reported.append($0) }
        harness.source.whileActing = { $0.tableContext?.show("/pages/product?id=3") }
        try harness.table.performAction(named: "open", onRow: "a")
        #expect(harness.table.shownLocation == nil)
        #expect(reported == [.showOutsideSelection(location: "/pages/product?id=3")])
        #expect(reported.first?.message.contains("linkForRow(at:)") == true, "the warning says what to do instead")

        reported = []
        _ = try harness.table.selectRow("a")
        #expect(harness.table.shownLocation == "/pages/product?id=3")
        #expect(reported.isEmpty)
    }

    @Test("show() of an address elsewhere is reported, and the selection leads nowhere", arguments: ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)", "/a\nb"])
    func showOffSiteIsReported(_ outside: String) throws {
        let harness = TableHarness([("s", ["a"])])
        var reported: [IgnoredDelegateAnswer] = []
        harness.table.onIgnoredAnswer = { reported.append($0) }
        harness.source.whileActing = { $0.tableContext?.show(outside) }
        _ = try harness.table.selectRow("a")
        #expect(harness.table.shownLocation == nil)
        #expect(reported == [.showOffSite(location: outside)])
    }
}
