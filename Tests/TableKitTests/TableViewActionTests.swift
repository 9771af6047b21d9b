import Testing
import TableKit

@Suite("Actions through the delegate chain")
struct TableViewActionTests {
    @Test("Selecting a row runs shouldHighlight, willSelect and didSelect")
    func select() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        #expect(try harness.table.selectRow("b") == .selected(TableIndexPath(section: 0, row: 1)))
        #expect(harness.source.events == ["didSelect [0, 1]"])
    }

    @Test("shouldHighlight false or willSelect nil vetoes the selection")
    func selectionVetoes() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.source.highlight = false
        #expect(try harness.table.selectRow("a") == .vetoed)
        harness.source.highlight = true
        harness.source.selectionRedirect = { _ in nil }
        #expect(try harness.table.selectRow("a") == .vetoed)
        #expect(harness.source.events.isEmpty)
    }

    @Test("willSelect can redirect the selection to another row")
    func selectionRedirect() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.source.selectionRedirect = { _ in TableIndexPath(section: 0, row: 0) }
        #expect(try harness.table.selectRow("b") == .selected(TableIndexPath(section: 0, row: 0)))
        #expect(harness.source.events == ["didSelect [0, 0]"])
    }

    @Test("Selecting or deselecting an unknown row reports it")
    func unknownSelection() throws {
        let harness = TableHarness([("s", ["a"])])
        #expect(try harness.table.selectRow("zzz") == .unknownRow)
        #expect(try harness.table.deselectRow("zzz") == .unknownRow)
        #expect(try harness.table.deselectRow("a") == .selected(TableIndexPath(section: 0, row: 0)))
        #expect(harness.source.events == ["didDeselect [0, 0]"])
    }

    @Test("Deleting a row commits .delete and publishes the deletion")
    func deleteRow() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        #expect(throws: TableError.notEditable("a")) { try harness.table.deleteRow("a") }
        harness.source.editable = true
        try harness.table.deleteRow("a")
        #expect(harness.source.events == ["commit delete [0, 0] [:]"])
        #expect(harness.published == [Changeset([.deleteRow("a")])])
        #expect(throws: TableError.unknownRow("a")) { try harness.table.deleteRow("a") }
    }

    @Test("Performing a named action reaches the delegate; an unknown name throws")
    func performAction() throws {
        let harness = TableHarness([("s", ["a"])])
        harness.source.actions = [RowAction(name: "archive", title: "Archive")]
        try harness.table.performAction(named: "archive", onRow: "a")
        #expect(harness.source.events == ["action archive [0, 0]"])
        #expect(throws: TableError.noSuchAction("explode", row: "a")) {
            try harness.table.performAction(named: "explode", onRow: "a")
        }
    }

    @Test("Moving a row asks canMove and targetIndexPathForMove, then moves data and publishes")
    func moveRow() throws {
        let harness = TableHarness([("s", ["a", "b", "c"]), ("t", ["d"])])
        #expect(throws: TableError.notMovable("a")) {
            try harness.table.moveRow("a", toSection: "s", placement: .after("c"))
        }
        harness.source.movable = true
        try harness.table.moveRow("a", toSection: "s", placement: .after("c"))
        #expect(harness.source.ids(0) == ["b", "c", "a"])
        #expect(harness.operations == [.moveRow("a", section: "s", placement: .after("c"))])

        try harness.table.moveRow("b", toSection: "t", placement: .before("d"))
        #expect(harness.source.ids(1) == ["b", "d"])
        #expect(harness.operations == [.moveRow("b", section: "t", placement: .start)])
    }

    @Test("targetIndexPathForMove can redirect a move")
    func moveRedirect() throws {
        let harness = TableHarness([("s", ["a", "b", "c"])])
        harness.source.movable = true
        harness.source.moveRedirect = { _, _ in TableIndexPath(section: 0, row: 1) }
        try harness.table.moveRow("a", toSection: "s", placement: .end)
        #expect(harness.source.ids(0) == ["b", "a", "c"])
        #expect(throws: TableError.unknownSection("nope")) {
            try harness.table.moveRow("a", toSection: "nope", placement: .end)
        }
    }

    @Test("Inserting a row hands the submitted values to commit(.insert)")
    func insertRow() throws {
        let harness = TableHarness([("s", ["a"])])
        try harness.table.insertRow(inSection: "s", values: ["title": "Milk"])
        #expect(harness.source.events == ["commit insert [0, 1] [\"title\": \"Milk\"]"])
        #expect(harness.operations == [.insertRow("milk", section: "s", placement: .after("a"))])
    }

    @Test("Prefetching maps identifiers to index paths and ignores unknown ones")
    func prefetch() {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.table.prefetchRows(["b", "unknown", "a"])
        harness.table.prefetchRows(["unknown"])
        #expect(harness.source.events == ["prefetch [[0, 1], [0, 0]]"])
    }

    @Test("Errors carry a message for people")
    func errorMessages() {
        #expect(TableError.unknownRow("x").message.contains("x"))
        #expect(TableError.noSuchAction("fly", row: "r").description.contains("fly"))
        #expect(TableError.inconsistentBatch("counts").message.hasPrefix("Inconsistent batch update"))
    }
}
