import Testing
import TableKit

@Suite("Batch updates and changesets")
struct ChangesetTests {
    @Test("Deletes are addressed by index paths before the batch")
    func deletesUseOldIndexes() throws {
        let harness = TableHarness([("s", ["a", "b", "c", "d"])])
        try harness.table.performBatchUpdates {
            harness.source.sections[0].rows.removeAll { ["b", "d"].contains($0.id) }
            harness.table.deleteRows(at: [TableIndexPath(section: 0, row: 3), TableIndexPath(section: 0, row: 1)])
        }
        #expect(harness.operations == [.deleteRow("b"), .deleteRow("d")])
        #expect(harness.table.indexPath(forRowID: "c") == TableIndexPath(section: 0, row: 1))
    }

    @Test("Inserts are addressed by index paths after the batch and placed after their neighbour")
    func insertsUseNewIndexes() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        try harness.table.performBatchUpdates {
            harness.source.sections[0].rows = ["x", "a", "y", "b"].map { FixtureRow(id: $0, title: $0) }
            harness.table.insertRows(at: [TableIndexPath(section: 0, row: 0), TableIndexPath(section: 0, row: 2)])
        }
        #expect(harness.operations == [
            .insertRow("x", section: "s", placement: .start),
            .insertRow("y", section: "s", placement: .after("a")),
        ])
    }

    @Test("Deletes and inserts in one batch mix old and new indexes as UIKit does")
    func mixedDeleteAndInsert() throws {
        let harness = TableHarness([("s", ["a", "b", "c"])])
        try harness.table.performBatchUpdates {
            harness.source.sections[0].rows = ["b", "c", "z"].map { FixtureRow(id: $0, title: $0) }
            harness.table.deleteRows(at: [TableIndexPath(section: 0, row: 0)])
            harness.table.insertRows(at: [TableIndexPath(section: 0, row: 2)])
        }
        #expect(harness.operations == [.deleteRow("a"), .insertRow("z", section: "s", placement: .after("c"))])
        #expect(harness.table.version == 1)
    }

    @Test("A move within a section and across sections becomes move operations")
    func moves() throws {
        let harness = TableHarness([("s", ["a", "b", "c"]), ("t", ["d"])])
        try harness.table.performBatchUpdates {
            harness.source.sections[0].rows = ["c", "a"].map { FixtureRow(id: $0, title: $0.uppercased()) }
            harness.source.sections[1].rows = ["d", "b"].map { FixtureRow(id: $0, title: $0.uppercased()) }
            harness.table.moveRow(at: TableIndexPath(section: 0, row: 2), to: TableIndexPath(section: 0, row: 0))
            harness.table.moveRow(at: TableIndexPath(section: 0, row: 1), to: TableIndexPath(section: 1, row: 1))
        }
        #expect(harness.operations == [
            .moveRow("c", section: "s", placement: .start),
            .moveRow("b", section: "t", placement: .after("d")),
        ])
    }

    @Test("Section inserts, deletes, moves and reloads become section operations")
    func sectionOperations() throws {
        let harness = TableHarness([("a", ["a1"]), ("b", ["b1"]), ("c", ["c1"])])
        try harness.table.performBatchUpdates {
            harness.source.sections = [
                (id: "c", rows: [FixtureRow(id: "c1", title: "C1")]),
                (id: "n", rows: [FixtureRow(id: "n1", title: "N1")]),
                (id: "b", rows: [FixtureRow(id: "b1", title: "changed")]),
            ]
            harness.table.deleteSections([0])
            harness.table.moveSection(2, toSection: 0)
            harness.table.insertSections([1])
            harness.table.reloadSections([1])
        }
        #expect(harness.operations == [
            .deleteSection("a"),
            .moveSection("c", placement: .start),
            .insertSection("n", placement: .after("c")),
            .replaceSection("b"),
        ])
    }

    @Test("An inconsistent batch throws, sends a reset and leaves a usable table")
    func inconsistentBatch() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        #expect(throws: TableError.self) {
            try harness.table.performBatchUpdates {
                harness.source.sections[0].rows.append(FixtureRow(id: "c", title: "C"))
                harness.table.deleteRows(at: [TableIndexPath(section: 0, row: 0)])
            }
        }
        #expect(harness.published == [.reset])
        #expect(harness.table.version == 1)
        #expect(harness.table.indexPath(forRowID: "c") == TableIndexPath(section: 0, row: 2))

        try harness.table.performBatchUpdates {
            harness.source.sections[0].rows.removeLast()
            harness.table.deleteRows(at: [TableIndexPath(section: 0, row: 2)])
        }
        #expect(harness.published.last == Changeset([.deleteRow("c")]))
    }

    @Test("Index paths out of range and conflicting updates are rejected", arguments: [
        "delete past end", "insert past end", "reload and delete", "section count",
    ])
    func rejectedBatches(_ kind: String) {
        let harness = TableHarness([("s", ["a", "b"])])
        let table = harness.table
        #expect(throws: TableError.self) {
            try table.performBatchUpdates {
                switch kind {
                case "delete past end": table.deleteRows(at: [TableIndexPath(section: 0, row: 5)])
                case "insert past end": table.insertRows(at: [TableIndexPath(section: 0, row: 5)])
                case "reload and delete":
                    table.reloadRows(at: [TableIndexPath(section: 0, row: 0)])
                    table.deleteRows(at: [TableIndexPath(section: 0, row: 0)])
                default: table.insertSections([1])
                }
            }
        }
        #expect(harness.published == [.reset])
    }

    @Test("endUpdates without beginUpdates throws")
    func unbalancedEnd() {
        let harness = TableHarness([("s", ["a"])])
        #expect(throws: TableError.unbalancedEndUpdates) { try harness.table.endUpdates() }
    }

    @Test("Reloading an unchanged row produces nothing; a changed row produces one replace")
    func reloadsOnlyChangedRows() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.table.reloadRows(at: [TableIndexPath(section: 0, row: 0)])
        #expect(harness.published.isEmpty)
        #expect(harness.table.version == 0)

        harness.source.sections[0].rows[1].title = "Bee"
        try harness.table.performBatchUpdates {
            harness.table.reloadRows(at: [TableIndexPath(section: 0, row: 0), TableIndexPath(section: 0, row: 1)])
        }
        #expect(harness.published == [Changeset([.replaceRow("b")])])
        #expect(harness.table.version == 1)
    }

    @Test("A reload where the data changed identity deletes the old row and inserts the new one")
    func reloadWithNewIdentity() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.source.sections[0].rows[1] = FixtureRow(id: "x", title: "X")
        harness.table.reloadRows(at: [TableIndexPath(section: 0, row: 1)])
        #expect(harness.operations == [.deleteRow("b"), .insertRow("x", section: "s", placement: .after("a"))])
    }

    @Test("reloadData sends a reset only when something changed")
    func reloadData() {
        let harness = TableHarness([("s", ["a"])])
        harness.table.reloadData()
        #expect(harness.published.isEmpty)
        harness.source.sections[0].rows[0].title = "new"
        harness.table.reloadData()
        #expect(harness.published == [.reset])
    }

    @Test("Nested batches commit once, at the outermost endUpdates")
    func nestedBatches() throws {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.table.beginUpdates()
        harness.table.beginUpdates()
        harness.source.sections[0].rows.removeFirst()
        harness.table.deleteRows(at: [TableIndexPath(section: 0, row: 0)])
        try harness.table.endUpdates()
        #expect(harness.published.isEmpty)
        harness.source.sections[0].rows.removeFirst()
        harness.table.deleteRows(at: [TableIndexPath(section: 0, row: 1)])
        try harness.table.endUpdates()
        #expect(harness.published == [Changeset([.deleteRow("a"), .deleteRow("b")])])
    }

    @Test("An empty batch publishes nothing and keeps the version")
    func emptyBatch() throws {
        let harness = TableHarness([("s", ["a"])])
        try harness.table.performBatchUpdates {}
        #expect(harness.published.isEmpty)
        #expect(Changeset().isEmpty)
        #expect(harness.table.version == 0)
    }
}
