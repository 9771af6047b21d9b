import Foundation
import TableKit
import Testing

@Suite("A footer about actions shows only to viewers shown the controls")
struct FooterWithControlsTests {
    /// A list whose footer tells how to tick an item, and a section with one footer for everyone.
    private final class Tickable: StaticSection {
        override func titleForFooterWithControls(inSection section: Int) -> String? { "Select an item to tick it." }
    }

    private static func page(showsControls: Bool, as format: RenderFormat) -> String {
        let sections = [
            Tickable(id: "items", footer: nil, rows: [StaticRow(id: "a", cell: TableCell(.basic, CellContent(title: "Milk")))]),
            Tickable(id: "more", footer: "Read by everyone", rows: []),
            StaticSection(id: "plain", footer: "The same for all", rows: []),
        ]
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: sections))
        var out = OutputBuffer()
        TableRenderer(table: table, context: RenderContext(basePath: "/pages/p", showsControls: showsControls)).renderPage(as: format, into: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test("With controls: the words about ticking; without: the footer for all, or none", arguments: [RenderFormat.html, .json])
    func perViewer(format: RenderFormat) {
        let writer = Self.page(showsControls: true, as: format)
        let viewer = Self.page(showsControls: false, as: format)
        #expect(writer.components(separatedBy: "Select an item to tick it.").count == 3, "both sections that say it, to a writer")
        #expect(!viewer.contains("tick it"), "\(viewer)")
        #expect(viewer.contains("Read by everyone") && !writer.contains("Read by everyone"))
        #expect(writer.contains("The same for all") && viewer.contains("The same for all"))
    }
}
