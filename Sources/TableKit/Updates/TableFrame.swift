/// What a table shows around its rows that no row or section operation describes: its header
/// view, and — for a section its data source holds a window of
/// (``TableDataSource/numberOfRowsAfterWindow(inSection:)``) — its whole row count and the rows
/// after its window. A row inserted past a database page's window changes only these.
///
/// The table keeps the frame it last sent and compares it with the current one at each commit;
/// a difference becomes ``Changeset/Operation/replaceHeader`` or
/// ``Changeset/Operation/updateSectionCounts(_:)``.
struct TableFrame: Equatable {
    /// A window section's counts.
    struct SectionCounts: Equatable {
        /// Rows held plus rows after the window: the whole section.
        var rowCount: Int
        /// Rows after the window.
        var rowsAfterWindow: Int
    }

    var headerView: TableCell?
    /// Counts by the sections held as a window, which alone have counts the rows do not show.
    var sectionCounts: [SectionID: SectionCounts]

    static let empty = TableFrame(headerView: nil, sectionCounts: [:])

    /// Reads the frame of `root` as it is now.
    init(capturing root: any TableRoot) {
        headerView = root.headerViewForTable()
        sectionCounts = [:]
        for section in 0..<max(0, root.numberOfSections()) {
            guard let after = root.numberOfRowsAfterWindow(inSection: section).map({ max(0, $0) }) else { continue }
            let counts = SectionCounts(rowCount: max(0, root.numberOfRows(inSection: section)) + after, rowsAfterWindow: after)
            sectionCounts[root.sectionID(forSection: section)] = counts
        }
    }

    init(headerView: TableCell?, sectionCounts: [SectionID: SectionCounts]) {
        self.headerView = headerView
        self.sectionCounts = sectionCounts
    }

    /// The operations that bring a client from this frame to `new`, in `sections`' order (the
    /// table's sections after the commit).
    /// - Parameter sentWhole: sections the changeset inserts or replaces whole, whose `next` link
    ///   arrives with them.
    func operations(to new: TableFrame, sections: [SectionID], sentWhole: Set<SectionID>) -> [Changeset.Operation] {
        var operations: [Changeset.Operation] = []
        for id in sections where !sentWhole.contains(id) {
            guard let counts = new.sectionCounts[id], let previous = sectionCounts[id], counts != previous else { continue }
            operations.append(.updateSectionCounts(id))
        }
        if headerView != new.headerView {
            operations.append(.replaceHeader)
        }
        return operations
    }
}
