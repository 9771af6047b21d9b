import Foundation
import HostileTextSupport
import PropertyBased
import Testing
import TableKit

/// Changes a window data source makes beyond its rows: counts past the window and the header view.
@Suite("Window counts and header patches")
struct WindowCountsTests {
    /// Sections of up to 5 rows with up to 10,000 rows after their window.
    static let windows = Gen.int(in: 0...5).array(of: 1...4).map { rowCounts in
        rowCounts.enumerated().map { index, count in
            WindowFixtureRoot.Section(id: "s\(index)", rows: (0..<count).map { "r\(index)-\($0)" }, after: count * 1_999 % 10_001)
        }
    }

    private func observed(_ root: WindowFixtureRoot) -> (TableAdapter, () -> [Changeset]) {
        let table = TableAdapter(root: root)
        let received = Received()
        table.onChange = { received.changesets.append($0) }
        return (table, { received.changesets })
    }

    private final class Received {
        var changesets: [Changeset] = []
    }

    private func render(_ changeset: Changeset, table: TableAdapter, includeHTML: Bool, rowLimit: Int? = 2) throws -> [[String: Any]] {
        var out = OutputBuffer()
        TableRenderer(table: table, context: RenderContext(basePath: "/pages/big", rowLimit: rowLimit))
            .renderPatch(changeset, version: table.version, includeHTML: includeHTML, into: &out)
        #expect(!out.string.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.string.utf8)) as? [String: Any])
        return try #require(object["ops"] as? [[String: Any]])
    }

    @Test("A re-read that finds the same rows, counts and header publishes nothing")
    func nothingChanged() async {
        await propertyCheckFailingOnThrow(input: Self.windows) { sections in
            let root = WindowFixtureRoot(sections, header: WindowFixtureRoot.header(count: 7))
            let (table, changesets) = observed(root)
            table.reconcileData()
            root.sections = sections
            root.header = WindowFixtureRoot.header(count: 7)
            table.reconcileData()
            try? table.performBatchUpdates {}
            #expect(changesets().isEmpty)
            #expect(table.version == 0)
        }
    }

    @Test("Rows added or removed past a window only: one section-next op for that section")
    func onlyCountsChanged() async {
        await propertyCheckFailingOnThrow(input: Self.windows, Gen.int(in: 0...3), Gen.int(in: 1...500)) { sections, pick, delta in
            let root = WindowFixtureRoot(sections)
            let (table, changesets) = observed(root)
            let index = pick % sections.count
            // Rows inserted past the window, or deleted when there are enough.
            root.sections[index].after += root.sections[index].after >= delta && delta % 2 == 0 ? -delta : delta
            table.reconcileData()
            #expect(changesets() == [Changeset([.updateSectionCounts(SectionID(sections[index].id))])])
            #expect(table.version == 1)
            table.reconcileData()
            #expect(changesets().count == 1, "the counts were sent once")
        }
    }

    @Test("A row inserted inside the window comes first, then its section's new count")
    func insertInsideWindow() {
        let root = WindowFixtureRoot([.init(id: "all", rows: ["1", "2", "3"], after: 10)])
        let (table, changesets) = observed(root)
        // The new row sorts first; the last row held leaves the window.
        root.sections[0].rows = ["0", "1", "2"]
        root.sections[0].after = 11
        table.reconcileData()
        #expect(changesets() == [Changeset([
            .deleteRow("3"), .insertRow("0", section: "all", placement: .start), .updateSectionCounts("all"),
        ])])
    }

    @Test("A batch that inserts a row also re-announces a window section's count")
    func batchInsert() throws {
        let root = WindowFixtureRoot([.init(id: "all", rows: ["1", "2"], after: 0)])
        let (table, changesets) = observed(root)
        try table.performBatchUpdates {
            root.sections[0].rows.append("3")
            table.insertRows(at: [TableIndexPath(section: 0, row: 2)])
        }
        #expect(changesets() == [Changeset([.insertRow("3", section: "all", placement: .after("2")), .updateSectionCounts("all")])])
    }

    @Test("A section sent whole carries its own next link: no count op for it")
    func wholeSectionHasNoCountOp() throws {
        let root = WindowFixtureRoot([.init(id: "a", rows: ["1"], after: 3), .init(id: "b", rows: ["2"], after: 4)])
        let (table, changesets) = observed(root)
        try table.performBatchUpdates {
            root.sections[0].after = 5
            root.sections[1].after = 6
            table.reloadSections([0])
        }
        #expect(changesets() == [Changeset([.replaceSection("a"), .updateSectionCounts("b")])])
    }

    @Test("A changed header view is one replace-header op; the same header sends nothing")
    func headerChanged() {
        let root = WindowFixtureRoot([.init(id: "all", rows: ["1"], after: 0)], header: WindowFixtureRoot.header(count: 1))
        let (table, changesets) = observed(root)
        root.header = WindowFixtureRoot.header(count: 2)
        table.reconcileData()
        root.header = nil
        table.reconcileData()
        table.reconcileData()
        #expect(changesets() == [Changeset([.replaceHeader]), Changeset([.replaceHeader])])
    }

    @Test("A reload that finds only new counts sends a reset, and then nothing more")
    func reloadDataResets() {
        let root = WindowFixtureRoot([.init(id: "all", rows: ["1"], after: 2)])
        let (table, changesets) = observed(root)
        root.sections[0].after = 3
        table.reloadData()
        table.reconcileData()
        #expect(changesets() == [.reset])
    }

    @Test("A root without a window sends row ops only, as before")
    func noWindowNoCounts() throws {
        let source = FixtureDataSource([("open", ["milk"])])
        let table = TableAdapter(root: source)
        let received = Received()
        table.onChange = { received.changesets.append($0) }
        source.replaceSections([("open", ["milk", "eggs"])])
        table.reconcileData()
        #expect(received.changesets == [Changeset([.insertRow("eggs", section: "open", placement: .after("milk"))])])
    }

    @Test("section-next carries the section's whole row count, its next link and the rows it leaves to come")
    func sectionNextWireFormat() throws {
        let root = WindowFixtureRoot([.init(id: "all", rows: ["1", "2", "3"], after: 997)])
        let (table, _) = observed(root)
        let changeset = Changeset([.updateSectionCounts("all")])
        let withHTML = try #require(try render(changeset, table: table, includeHTML: true).first)
        #expect(withHTML["op"] as? String == "section-next")
        #expect(withHTML["section"] as? String == "all")
        #expect(withHTML["rowCount"] as? Int == 1000)
        #expect(withHTML["next"] as? String == "/pages/big/sections/all?after=2&limit=2")
        #expect(withHTML["remaining"] as? Int == 998)
        #expect(withHTML["html"] as? String
            == #"<a class="tk-next" rel="next" href="/pages/big/sections/all?after=2&amp;limit=2" data-remaining="998" data-estimated-row-height="40">More rows</a>"#)
        let withoutHTML = try #require(try render(changeset, table: table, includeHTML: false).first)
        #expect(withoutHTML["html"] == nil)
        #expect(withoutHTML["rowCount"] as? Int == 1000 && withoutHTML["remaining"] as? Int == 998)
        // A stream without HTML is read by scripts: its next link leads to JSON.
        #expect(withoutHTML["next"] as? String == "/pages/big/sections/all.json?after=2&limit=2")
    }

    @Test("section-next of a section shown whole has no next link")
    func sectionNextWithoutLink() throws {
        let root = WindowFixtureRoot([.init(id: "all", rows: ["1", "2"], after: 0)])
        let (table, _) = observed(root)
        let op = try #require(try render(Changeset([.updateSectionCounts("all")]), table: table, includeHTML: true, rowLimit: nil).first)
        #expect(op["rowCount"] as? Int == 2)
        #expect(op["next"] is NSNull && op["remaining"] is NSNull)
        #expect(op["html"] == nil)
        let gone = try #require(try render(Changeset([.updateSectionCounts("gone")]), table: table, includeHTML: true).first)
        #expect(gone.keys.sorted() == ["op", "section"])
    }

    @Test("replace-header carries the header element and its cell, or nulls when it went")
    func replaceHeaderWireFormat() throws {
        let root = WindowFixtureRoot([.init(id: "all", rows: [], after: 0)], header: TableCell(.basic, CellContent(title: "12 <rows>")))
        let (table, _) = observed(root)
        let op = try #require(try render(Changeset([.replaceHeader]), table: table, includeHTML: true).first)
        #expect(op["op"] as? String == "replace-header")
        let html = try #require(op["html"] as? String)
        #expect(html.hasPrefix(#"<header id="table-header" class="tk-table-header"><div class="tk-cell" data-kind="basic">"#))
        #expect(html.contains("12 &lt;rows&gt;") && html.hasSuffix("</header>"))
        #expect((op["data"] as? [String: Any])?["title"] as? String == "12 <rows>")
        // The same element as in the page.
        var page = OutputBuffer()
        TableRenderer(table: table, context: RenderContext(basePath: "/pages/big")).renderPage(as: .html, into: &page)
        #expect(page.string.contains(html))
        root.header = nil
        let gone = try #require(try render(Changeset([.replaceHeader]), table: table, includeHTML: true).first)
        #expect(gone["html"] is NSNull && gone["data"] is NSNull)
        let goneJSON = try #require(try render(Changeset([.replaceHeader]), table: table, includeHTML: false).first)
        #expect(goneJSON.keys.sorted() == ["data", "op"])
    }
}
