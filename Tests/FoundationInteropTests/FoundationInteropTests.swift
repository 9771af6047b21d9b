import Foundation
import TableKit
import Testing

// A delegate file of a user's package typically imports Foundation (for Date, URL, JSON) beside
// TableKit; every TableKit name it uses must stay unambiguous.
final class DatedRow: CascadingBareTableDelegate {
    let date = Date(timeIntervalSince1970: 0)
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        TableCell(.basic, CellContent(title: ISO8601DateFormatter().string(from: date)))
    }
    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID("epoch") }
}

@Test func tableKitAndFoundationNamesCoexistInOneFile() {
    let foundationPath: IndexPath = [0, 1]
    let tablePath = TableIndexPath(section: foundationPath[0], row: foundationPath[1])
    let section = CascadingSectionTableDelegate(childDelegates: [DatedRow(), DatedRow()])
    let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [section]))
    #expect(table.root.rowID(forRowAt: tablePath) == RowID("epoch"))
    #expect(tablePath.description == foundationPath.description)
}
