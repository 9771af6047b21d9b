import TableKit
import TablePages

/// One page of a database section's rows, read by keyset away from the page's host (a
/// ``/TablePages/RowPageReader``): everything it needs is copied out of the live root when the
/// request arrives.
struct DatabaseTablePageReader: RowPageReader {
    let reader: DatabaseTableReader
    let section: SectionID
    let after: RowID?
    let limit: Int
    /// The section's row count in the live window, to estimate the rows after the page; nil when
    /// the window has no such section (the read then throws `unknownSection` or counts).
    let total: Int?

    func root() throws -> any TableRoot {
        DatabaseTableSource(reader: reader, sections: [try reader.page(of: section, after: after, limit: limit, total: total)])
    }
}
