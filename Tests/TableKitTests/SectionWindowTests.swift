import Testing
import TableKit

/// A window declared by a section delegate below a cascading root is routed, not ignored: it was
/// a protocol the root alone was tested for, so a section that conformed showed no rows to come.
@Suite("A section delegate's window")
struct SectionWindowTests {
    /// A section that holds the first rows of many and counts the rest.
    final class WindowSection: StaticSection {
        var after: Int
        init(id: SectionID, rows: [String], after: Int) {
            self.after = after
            super.init(id: id, rows: rows.map { StaticRow(id: RowID($0), cell: TableCell(.basic, CellContent(title: $0))) })
        }
        override func numberOfRowsAfterWindow(inSection section: Int) -> Int? { after }
    }

    @Test("the page render ends the windowed section with a next link counting the rows after it; a whole section has none")
    func renderedNextLink() {
        let windowed = WindowSection(id: "big", rows: ["a", "b"], after: 40)
        let whole = StaticSection(id: "small", rows: [StaticRow(id: "c", cell: TableCell(.basic, CellContent(title: "c")))])
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [windowed, whole]))
        var out = OutputBuffer()
        TableRenderer(table: table, context: RenderContext(basePath: "/pages/p")).renderPage(as: .html, into: &out)
        #expect(out.string.contains(#"href="/pages/p/sections/big?after=b"#))
        #expect(out.string.contains(#"data-remaining="40""#))
        #expect(!out.string.contains("/pages/p/sections/small?after="))
    }

    @Test("a change of the section's count alone is published as its new counts")
    func countChangePublished() {
        let windowed = WindowSection(id: "big", rows: ["a"], after: 5)
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [windowed]))
        var published: [Changeset] = []
        table.onChange = { published.append($0) }
        windowed.after = 6
        table.reconcileData()
        #expect(published == [Changeset([.updateSectionCounts("big")])])
    }
}
