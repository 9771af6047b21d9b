import TableKit

/// Rows of one section of a database page, read in one go: the first rows of the section (the
/// live table's window) or the rows of one `next` page.
struct DatabaseSection: Sendable {
    /// One row: its id (which encodes its key) and its cell.
    struct Row: Sendable {
        let id: RowID
        let cell: TableCell
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
