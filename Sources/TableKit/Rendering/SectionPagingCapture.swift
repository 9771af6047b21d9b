/// Keeps what a walk of one section announces — its row count and its `next` link — and writes
/// nothing: a section-count patch tells clients exactly what a page rendered now would say.
struct SectionPagingCapture: TableEmitter {
    /// The section's row count as the walk announced it.
    private(set) var rowCount = 0
    /// The section's `next` link, nil when the walk showed every row.
    private(set) var next: NextPage?

    mutating func beginTable(_ heading: TableHeading, into out: inout OutputBuffer) {}
    mutating func endTable(into out: inout OutputBuffer) {}
    mutating func beginSection(_ section: SectionRecord, into out: inout OutputBuffer) {
        rowCount = section.rowCount
    }
    mutating func endSection(_ section: SectionRecord, next: NextPage?, into out: inout OutputBuffer) {
        self.next = next
    }
    mutating func row(_ row: RowRecord, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer) {}
}
