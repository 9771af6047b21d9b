import TableKit
import TableStore

/// Rows of one section of a database page, read in one go: the first rows of the section (the
/// live table's window) or the rows of one `next` page.
struct DatabaseSection: Sendable {
    /// One row: its id (which encodes its key) and what it shows.
    struct Row: Sendable {
        let id: RowID
        let content: Content

        /// What a row shows.
        enum Content: Sendable {
            /// Its cell, made.
            case cell(TableCell)
            /// The values its reader read (the key's, then every column's), each of which a page
            /// shows whole (``DatabaseRecordCell/isShownWhole(_:)``): its cell is made when asked
            /// (``DatabaseTableReader/cell(of:)``), and JSON output writes its fields straight from them.
            case values([SQLValue])
        }

        /// A row whose cell is made.
        init(id: RowID, cell: TableCell) {
            self.id = id
            self.content = .cell(cell)
        }

        /// A row shown from its values (``Content/values(_:)``).
        init(id: RowID, values: [SQLValue]) {
            self.id = id
            self.content = .values(values)
        }

        /// Whether the row holds its values rather than its cell.
        var holdsValues: Bool {
            if case .values = content { true } else { false }
        }
    }

    /// `all` for an ungrouped page; the encoded group value otherwise.
    let id: SectionID
    /// The group's value shown as a header; nil for an ungrouped page.
    let headerTitle: String?
    /// The rows held, in the page's order.
    let rows: [Row]
    /// How many rows of the section follow the held ones (exact up to a bound, then estimated;
    /// see ``DatabaseTableReader``).
    let rowsAfter: Int
    /// How many rows the whole section has, counted when it was read; nil when not counted.
    let total: Int?
}
