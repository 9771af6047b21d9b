import Testing
import TableKit

/// A people's action whose delegate throws, on a table with rows a, b, c in section s and d in t,
/// every row editable, movable and offering "archive".
struct FailingAction: Sendable, CustomTestStringConvertible {
    let name: String
    let run: @Sendable (TableAdapter) throws -> Void

    var testDescription: String { name }

    static let all: [FailingAction] = [
        FailingAction(name: "select") { _ = try $0.selectRow("b") },
        FailingAction(name: "deselect") { _ = try $0.deselectRow("b") },
        FailingAction(name: "perform an action") { try $0.performAction(named: "archive", onRow: "b", values: ["note": "x"]) },
        FailingAction(name: "delete") { try $0.deleteRow("b") },
        FailingAction(name: "move") { try $0.moveRow("b", toSection: "t", placement: .after("d")) },
        FailingAction(name: "insert") { try $0.insertRow(inSection: "s", values: ["title": "Milk"]) },
    ]
}

@Suite("Actions whose delegate throws change nothing")
struct FailingActionTests {
    /// A harness whose delegate allows every action and throws ``FixtureFailure`` from each.
    private func failingHarness() -> TableHarness {
        TableHarness([("s", ["a", "b", "c"]), ("t", ["d"])]) { source in
            source.editable = true
            source.movable = true
            source.actions = [RowAction(name: "archive", title: "Archive")]
            source.failure = FixtureFailure()
        }
    }

    @Test("The delegate's error reaches the caller; no version, no changeset, the same committed rows", arguments: FailingAction.all)
    func failingActionChangesNothing(_ action: FailingAction) {
        let harness = failingHarness()
        let version = harness.table.version
        let rows = harness.committedRows
        #expect(throws: FixtureFailure()) { try action.run(harness.table) }
        #expect(harness.table.version == version)
        #expect(harness.published.isEmpty)
        #expect(harness.committedRows == rows)
        #expect(harness.source.ids(0) == ["a", "b", "c"])
        #expect(harness.source.ids(1) == ["d"])
    }

    @Test("Updates reported before the throw are discarded, not sent with the next batch", arguments: FailingAction.all)
    func reportedUpdatesAreDiscarded(_ action: FailingAction) throws {
        let harness = failingHarness()
        // A delegate that reports a change and then fails to store it.
        harness.source.beforeFailing = { source in
            source.tableContext?.deleteRows(at: [TableIndexPath(section: 0, row: 0)])
            source.tableContext?.moveRow(at: TableIndexPath(section: 0, row: 1), to: TableIndexPath(section: 1, row: 0))
        }
        #expect(throws: FixtureFailure()) { try action.run(harness.table) }
        #expect(harness.published.isEmpty)

        harness.source.failure = nil
        try harness.table.deleteRow("c")
        #expect(harness.published == [Changeset([.deleteRow("c")])])
        #expect(harness.committedRows == [["a", "b"], ["d"]])
    }

    @Test("A batch the delegate opened and never closed is closed with the failed action", arguments: FailingAction.all)
    func openedBatchesAreClosed(_ action: FailingAction) throws {
        let harness = failingHarness()
        harness.source.beforeFailing = { source in
            source.tableContext?.beginUpdates()
            source.tableContext?.beginUpdates()
        }
        #expect(throws: FixtureFailure()) { try action.run(harness.table) }

        // Outside any batch a lone update commits at once, as it did before the failure.
        harness.source.sections[0].rows[0].title = "Apple"
        harness.table.reloadRows(at: [TableIndexPath(section: 0, row: 0)])
        #expect(harness.published == [Changeset([.replaceRow("a")])])
        #expect(harness.table.version == 1)
    }

    @Test("A move whose delegate throws records no move, and one that succeeds records it after the data moved")
    func moveIsRecordedOnlyAfterTheDelegateMoved() throws {
        let harness = failingHarness()
        #expect(throws: FixtureFailure()) { try harness.table.moveRow("a", toSection: "s", placement: .end) }
        #expect(!harness.source.events.contains { $0.hasPrefix("move") })
        #expect(harness.published.isEmpty)

        harness.source.failure = nil
        try harness.table.moveRow("a", toSection: "s", placement: .end)
        #expect(harness.published == [Changeset([.moveRow("a", section: "s", placement: .after("c"))])])
    }

    @Test("A selection that fails leads nowhere, even when the delegate asked to show a page first")
    func failedSelectionShowsNothing() {
        let harness = failingHarness()
        harness.source.beforeFailing = { $0.tableContext?.show("/pages/product?id=3") }
        #expect(throws: FixtureFailure()) { try harness.table.selectRow("a") }
        #expect(harness.table.shownLocation == nil)
    }

    @Test("A delegate that changes its data and then throws gets its pages reset rather than left stale")
    func changedThenThrewResets() {
        let harness = failingHarness()
        harness.source.beforeFailing = { $0.sections[0].rows.remove(at: 0) }
        #expect(throws: FixtureFailure()) { try harness.table.deleteRow("a") }
        #expect(harness.published == [.reset])
        #expect(harness.committedRows == [["b", "c"], ["d"]])
    }

    @Test("A nested batch that throws discards only its own updates; the outer batch still commits")
    func nestedFailureKeepsTheOuterBatch() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        let table = harness.table
        try table.performBatchUpdates {
            harness.source.sections[0].rows[0].title = "Apple"
            table.reloadRows(at: [TableIndexPath(section: 0, row: 0)])
            #expect(throws: FixtureFailure()) {
                try table.performBatchUpdates {
                    table.deleteRows(at: [TableIndexPath(section: 0, row: 1)])
                    throw FixtureFailure()
                }
            }
        }
        #expect(harness.published == [Changeset([.replaceRow("a")])])
        #expect(harness.committedRows == [["a", "b"]])
    }
}
