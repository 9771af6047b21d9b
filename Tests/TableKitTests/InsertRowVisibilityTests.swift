import TableKit
import Testing

@Suite("An insert row shows only to viewers who may write")
struct InsertRowVisibilityTests {
    /// The row that carries a section's add form.
    private final class AddRow: StaticRow {
        override func canEditRow(at indexPath: TableIndexPath) -> Bool { true }
        override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .insert }
    }

    @Test("With controls: the row and its form; without: the row kept (patches name it) but hidden, with no form")
    func hiddenFromViewersWithoutControls() throws {
        let row = AddRow(id: "add-row", cell: TableCell(.basic, CellContent(title: "New to-do")))
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [StaticSection(id: "add", rows: [row])]))
        for showsControls in [true, false] {
            let html = try TableRenderer(table: table, context: RenderContext(basePath: "/pages/p", showsControls: showsControls)).row("add-row", .html)
            #expect(html.hasPrefix(#"<div id="row-add-row""#))
            #expect(html.contains(#"role="row" hidden>"#) == !showsControls, "\(html)")
            #expect(html.contains(#"<form class="tk-insert""#) == showsControls)
        }
    }
}
