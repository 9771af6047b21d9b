import Testing
import TableKit

@Suite("Tables made for one render")
struct RenderingOnceTableTests {
    @Test("A table made for one render renders the page, every section from any row, and every row as a live table does")
    func rendersAsALiveTable() throws {
        let live = goldenPage().0
        // A root of its own: preparing a root hands it its table.
        let once = TableAdapter(renderingOnce: goldenPage().0.root)
        once.title = live.title
        let context = PageRenderingTests.context
        for format in [RenderFormat.html, .json] {
            #expect(TableRenderer(table: once, context: context).page(format) == TableRenderer(table: live, context: context).page(format))
            for (section, rows) in [("open", ["milk", "eggs"]), ("done", ["bread"])] {
                for after in [nil] + rows.map(Optional.some) {
                    var fromOnce = OutputBuffer(), fromLive = OutputBuffer()
                    try TableRenderer(table: once, context: context).renderSection(SectionID(section), after: after.map { RowID($0) }, limit: 1, as: format, into: &fromOnce)
                    try TableRenderer(table: live, context: context).renderSection(SectionID(section), after: after.map { RowID($0) }, limit: 1, as: format, into: &fromLive)
                    #expect(fromOnce.string == fromLive.string, "\(section) after \(after ?? "nil")")
                }
                for row in rows {
                    var fromOnce = OutputBuffer(), fromLive = OutputBuffer()
                    try TableRenderer(table: once, context: context).renderRow(RowID(row), as: format, into: &fromOnce)
                    try TableRenderer(table: live, context: context).renderRow(RowID(row), as: format, into: &fromLive)
                    #expect(!fromOnce.string.isEmpty && fromOnce.string == fromLive.string, "\(row)")
                }
            }
            // Unknown rows and sections are refused as by a live table: it knows every identifier.
            var out = OutputBuffer()
            #expect(throws: TableError.unknownRow("nope")) {
                try TableRenderer(table: once, context: context).renderSection("open", after: "nope", as: format, into: &out)
            }
            #expect(throws: TableError.unknownSection("nope")) {
                try TableRenderer(table: once, context: context).renderSection("nope", as: format, into: &out)
            }
        }
    }

    @Test("A table made for one render finds rows by identifier without indexing them, and still diffs a later batch against what it showed")
    func findsRowsAndStillUpdates() throws {
        let source = FixtureDataSource([("s", ["a", "b", "c", "d"]), ("t", ["e"])])
        let table = TableAdapter(renderingOnce: source)
        var published: [Changeset] = []
        table.onChange = { published.append($0) }
        #expect(table.indexPath(forRowID: "c") == TableIndexPath(section: 0, row: 2))
        #expect(table.indexPath(forRowID: "e") == TableIndexPath(section: 1, row: 0))
        #expect(table.indexPath(forRowID: "nope") == nil)
        try table.performBatchUpdates {
            source.sections[0].rows.removeAll { ["b", "d"].contains($0.id) }
            table.deleteRows(at: [TableIndexPath(section: 0, row: 3), TableIndexPath(section: 0, row: 1)])
        }
        let operations = published.last?.operations ?? []
        #expect(operations.contains(.deleteRow("b")) && operations.contains(.deleteRow("d")), "\(operations)")
        #expect(table.indexPath(forRowID: "c") == TableIndexPath(section: 0, row: 1))
        #expect(table.indexPath(forRowID: "b") == nil)
    }
}
