import Foundation
import Testing
import TableKit

@Suite("Patch rendering")
struct PatchRenderingTests {
    private func render(_ changeset: Changeset, table: TableAdapter, includeHTML: Bool) -> String {
        var out = OutputBuffer()
        TableRenderer(table: table, context: RenderContext(basePath: "/pages/groceries"))
            .renderPatch(changeset, version: table.version, includeHTML: includeHTML, into: &out)
        return out.string
    }

    @Test("A replaced row carries its section, outer HTML and JSON data on one line")
    func replaceRow() throws {
        let (table, rows) = goldenPage()
        rows[1].content = CellContent(title: "Eggs\n<free range>")
        table.reloadRows(at: [TableIndexPath(section: 0, row: 1)])
        let patch = render(Changeset([.replaceRow("eggs")]), table: table, includeHTML: true)
        #expect(!patch.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(patch.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let operation = try #require((object["ops"] as? [[String: Any]])?.first)
        #expect(operation["op"] as? String == "replace")
        #expect(operation["section"] as? String == "open")
        #expect(operation["row"] as? String == "eggs")
        #expect((operation["html"] as? String)?.hasPrefix(#"<div id="row-eggs""#) == true)
        #expect((operation["html"] as? String)?.contains("Eggs\n&lt;free range&gt;") == true)
        #expect((operation["data"] as? [String: Any])?["title"] as? String == "Eggs\n<free range>")
    }

    @Test("Without HTML the ops carry data only")
    func jsonOnly() {
        let (table, _) = goldenPage()
        let patch = render(Changeset([.replaceRow("milk")]), table: table, includeHTML: false)
        #expect(!patch.contains("\"html\""))
        #expect(patch.contains(#""data":{"id":"milk""#))
    }

    @Test("Every operation kind is written in the wire format")
    func allOperations() {
        let (table, _) = goldenPage()
        let changeset = Changeset([
            .deleteRow("gone"),
            .insertRow("milk", section: "open", placement: .start),
            .moveRow("eggs", section: "open", placement: .after("milk")),
            .insertSection("done", placement: .after("open")),
            .moveSection("open", placement: .start),
            .replaceSection("done"),
            .deleteSection("old"),
            .insertRow("bread", section: "done", placement: .before("x")),
            .reset,
        ])
        let patch = render(changeset, table: table, includeHTML: false)
        #expect(patch.hasPrefix(#"{"version":0,"ops":[{"op":"delete","row":"gone"},{"op":"insert","section":"open","row":"milk","after":null,"data":{"id":"milk""#))
        #expect(patch.contains(#"{"op":"move","row":"eggs","section":"open","after":"milk"}"#))
        #expect(patch.contains(#"{"op":"insert-section","section":"done","after":"open","data":{"id":"done""#))
        #expect(patch.contains(#"{"op":"move-section","section":"open","after":null}"#))
        #expect(patch.contains(#"{"op":"replace-section","section":"done","data":{"id":"done""#))
        #expect(patch.contains(#"{"op":"delete-section","section":"old"}"#))
        #expect(patch.contains(#""row":"bread","before":"x""#))
        #expect(patch.hasSuffix(#"{"op":"reset"}]}"#))
    }

    @Test("A section operation carries the whole section element")
    func sectionHTML() throws {
        let (table, _) = goldenPage()
        let patch = render(Changeset([.replaceSection("done")]), table: table, includeHTML: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(patch.utf8)) as? [String: Any])
        let html = try #require((object["ops"] as? [[String: Any]])?.first?["html"] as? String)
        #expect(html.hasPrefix(#"<section id="section-done""#) && html.hasSuffix("</section>"))
        #expect(html.contains(#"data-row="bread""#))
    }
}
