import Synchronization
import TableKit
import Testing

@Suite("The table's updater: changes from any task")
struct TableUpdaterTests {
    @Test func changesFromDetachedTasksWaitForTheOwnerThenArriveAsOneChangeset() async throws {
        let notes = NoteTable()
        let updater = notes.table.updater
        let queued = await Task.detached {
            updater.updateRow("n0", of: NoteRow.self) { $0.text = "loaded" }
                && updater.updateRow("n2", of: NoteRow.self) { $0.text = "loaded too" }
        }.value
        #expect(queued)
        #expect(notes.published.isEmpty, "nothing runs outside the owner's isolation")
        #expect(updater.queuedCount == 2)

        #expect(notes.table.applyQueuedChanges().isEmpty)
        #expect(notes.published.count == 1)
        #expect(notes.published.first?.operations == [.replaceRow("n0"), .replaceRow("n2")])
        #expect(notes.rows.map(\.text) == ["loaded", "note 1", "loaded too"])
        #expect(updater.queuedCount == 0)
        #expect(notes.table.applyQueuedChanges().isEmpty)
        #expect(notes.published.count == 1, "an empty queue publishes nothing")
    }

    @Test func theOwnerIsWokenOnceForEachRunOfQueuedChanges() async {
        let notes = NoteTable()
        let wakes = Atomic(0)
        notes.table.updater.whenChangesQueued { wakes.add(1, ordering: .relaxed) }
        for _ in 0..<3 { notes.table.updater.reconcile() }
        #expect(wakes.load(ordering: .relaxed) == 1)
        notes.table.applyQueuedChanges()
        notes.table.updater.reconcile()
        #expect(wakes.load(ordering: .relaxed) == 2)
        // Set while changes wait, the wake is called at once.
        let late = Atomic(0)
        notes.table.updater.whenChangesQueued { late.add(1, ordering: .relaxed) }
        #expect(late.load(ordering: .relaxed) == 1)
    }

    @Test func theRootCountsAsTheRowsDelegateWhenItIsOfTheType() {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.table.updater.updateRow("b", of: FixtureDataSource.self) { $0.sections[0].rows[1].title = "Bee" }
        harness.table.applyQueuedChanges()
        #expect(harness.published.count == 1)
        #expect(harness.operations == [.replaceRow("b")])
    }

    @Test func aRowThatIsGoneOrHasNoDelegateOfTheTypeIsLeftAlone() {
        let notes = NoteTable()
        let ran = Atomic(0)
        notes.table.updater.updateRow("missing", of: NoteRow.self) { _ in ran.add(1, ordering: .relaxed) }
        notes.table.updater.updateRow("n1", of: GoldenRow.self) { _ in ran.add(1, ordering: .relaxed) }
        #expect(notes.table.applyQueuedChanges().isEmpty)
        #expect(ran.load(ordering: .relaxed) == 0)
        #expect(notes.published.isEmpty)
    }

    @Test func aPerformThatThrowsPublishesNothingAndItsErrorIsReturned() {
        let harness = TableHarness([("s", ["a", "b"])])
        let root = harness.source
        harness.table.updater.perform { context in
            context.deleteRows(at: [TableIndexPath(section: 0, row: 0)])
            throw FixtureFailure(reason: "store locked")
        }
        let errors = harness.table.applyQueuedChanges()
        #expect(errors.count == 1)
        #expect((errors.first as? FixtureFailure)?.reason == "store locked")
        #expect(harness.published.isEmpty)
        #expect(root.sections[0].rows.map(\.id) == ["a", "b"])
    }

    @Test func reconcileSendsWhatChangedWithoutAnyoneSayingWhere() {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.source.sections[0].rows[0].title = "Changed quietly"
        harness.table.updater.reconcile()
        harness.table.applyQueuedChanges()
        #expect(harness.operations == [.replaceRow("a")])
    }

    @Test func anUpdaterThatOutlivesItsTableRefusesChangesWithoutCrashing() async {
        var notes: NoteTable? = NoteTable()
        let updater = notes!.table.updater
        updater.updateRow("n0", of: NoteRow.self) { $0.text = "never shown" }
        notes = nil
        let accepted = await Task.detached {
            [updater.updateRow("n0", of: NoteRow.self) { $0.text = "too late" }, updater.perform { _ in }, updater.reconcile()]
        }.value
        #expect(accepted == [false, false, false])
        #expect(updater.queuedCount == 0, "what waited was dropped with the table")
    }

    @Test func theQueueIsBoundedAndAcceptsAgainOnceApplied() {
        let notes = NoteTable()
        let updater = notes.table.updater
        for _ in 0..<TableUpdater.queueLimit { updater.reconcile() }
        #expect(!updater.updateRow("n0", of: NoteRow.self) { $0.text = "over the limit" })
        notes.table.applyQueuedChanges()
        #expect(updater.updateRow("n0", of: NoteRow.self) { $0.text = "accepted" })
        notes.table.applyQueuedChanges()
        #expect(notes.rows[0].text == "accepted")
    }
}

extension TableUpdaterTests {
    @Test func performOnTheRootChangesItsDataAndReportsTheBatchAsOneChangeset() async {
        let harness = TableHarness([("s", ["a", "b"])])
        let updater = harness.table.updater
        let queued = await Task.detached {
            updater.perform(on: FixtureDataSource.self) { root, context in
                root.sections[0].rows.insert(FixtureRow(id: "new", title: "New"), at: 0)
                context.insertRows(at: [TableIndexPath(section: 0, row: 0)])
                root.sections[0].rows[2].title = "Bee"
                context.reloadRows(withIDs: ["b"])
            }
        }.value
        #expect(queued)
        #expect(harness.table.applyQueuedChanges().isEmpty)
        #expect(harness.published.count == 1)
        #expect(harness.committedRows == [["new", "a", "b"]])
        #expect(harness.operations.contains(.replaceRow("b")))
        // A root of another type is left alone.
        updater.perform(on: NoteRow.self) { _, context in context.reloadData() }
        harness.table.applyQueuedChanges()
        #expect(harness.published.count == 1)
    }
}
