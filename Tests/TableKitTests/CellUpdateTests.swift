import Testing
import TableKit

/// An object behind a cell's content that changes on its own (an image loader, a live record):
/// it knows its row and a narrow update delegate, never the table.
private final class LiveTitle {
    let row: RowID
    weak var updateDelegate: (any CellUpdateDelegate)?
    private(set) var text: String

    init(row: RowID, text: String) {
        self.row = row
        self.text = text
    }

    func change(to newText: String) {
        updateDelegate?.cellWillBeginUpdate(row)
        text = newText
        updateDelegate?.cellDidEndUpdate(row)
    }
}

/// A row delegate whose cell shows a live title.
private final class LiveRow: CascadingBareTableDelegate {
    let title: LiveTitle

    init(id: RowID, text: String) {
        title = LiveTitle(row: id, text: text)
        super.init()
        title.updateDelegate = self
    }

    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { title.row }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.basic, CellContent(title: title.text)) }
}

@Suite("Cell-level update signals")
struct CellUpdateTests {
    private func makeTable() -> (TableAdapter, [LiveRow], Box) {
        let rows = [LiveRow(id: "r0", text: "zero"), LiveRow(id: "r1", text: "one")]
        let root = CascadingRootTableDelegate(childDelegates: [CascadingSectionTableDelegate(childDelegates: rows)])
        let table = TableAdapter(root: root)
        let box = Box()
        table.onChange = { box.changesets.append($0) }
        return (table, rows, box)
    }

    final class Box { var changesets: [Changeset] = [] }

    @Test("A cell's begin/end update signal becomes a reload of its row through the parent chain")
    func signalBecomesReplace() {
        let (table, rows, box) = makeTable()
        rows[1].title.change(to: "uno")
        #expect(box.changesets == [Changeset([.replaceRow("r1")])])
        #expect(table.version == 1)
    }

    @Test("A signal whose content did not change produces no patch")
    func unchangedSignal() {
        let (_, rows, box) = makeTable()
        rows[0].title.change(to: "zero")
        #expect(box.changesets.isEmpty)
    }

    @Test("Signals during a batch join that batch's changeset")
    func signalJoinsCurrentBatch() throws {
        let (table, rows, box) = makeTable()
        try table.performBatchUpdates {
            rows[0].title.change(to: "cero")
            rows[1].title.change(to: "uno")
        }
        #expect(box.changesets == [Changeset([.replaceRow("r0"), .replaceRow("r1")])])
    }
}
