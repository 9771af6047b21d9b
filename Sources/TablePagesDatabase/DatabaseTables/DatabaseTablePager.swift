import TableKit
import TablePages

/// Reads later pages of a database table's variant by keyset, or from a position in its order
/// (`?_at=N`), away from the page's host (a ``/TablePages/PositionalRowPager``): what it needs of the live root is copied when the root is made and
/// after each re-read.
struct DatabaseTablePager: PositionalRowPager {
    let reader: DatabaseTableReader
    /// Each section's row count in the live window, to estimate the rows after a page; a section
    /// missing here is one the window did not read (its page counts, or throws `unknownSection`).
    let totals: [(id: SectionID, total: Int?)]

    func root(ofRowsIn section: SectionID, after row: RowID?, limit: Int) throws -> any TableRoot {
        DatabaseTableSource(reader: reader, sections: [try reader.page(of: section, after: row, limit: limit, total: total(of: section))])
    }

    func root(ofRowsIn section: SectionID, from position: Int, limit: Int) throws -> any TableRoot {
        DatabaseTableSource(reader: reader, sections: [try reader.page(of: section, from: position, limit: limit, total: total(of: section))])
    }

    private func total(of section: SectionID) -> Int? {
        totals.first { $0.id == section }?.total ?? nil
    }
}
