/// The identifiers of every section and row at the last commit, with lookups both ways.
///
/// Index paths from before a batch are resolved against this snapshot.
struct TableSnapshot: Equatable {
    struct Section: Equatable {
        var id: SectionID
        var rows: [RowID]
    }

    private(set) var sections: [Section]
    private(set) var rowPaths: [RowID: TableIndexPath] = [:]
    private(set) var sectionIndexes: [SectionID: Int] = [:]

    init(sections: [Section]) {
        self.sections = sections
        // Sized once: growing the lookup as rows come was about half of making the snapshot of a
        // 100-row database page (a table made for one render makes one per request).
        sectionIndexes.reserveCapacity(sections.count)
        rowPaths.reserveCapacity(sections.reduce(0) { $0 + $1.rows.count })
        for (sectionIndex, section) in sections.enumerated() {
            sectionIndexes[section.id] = sectionIndex
            for (rowIndex, row) in section.rows.enumerated() {
                rowPaths[row] = TableIndexPath(section: sectionIndex, row: rowIndex)
            }
        }
    }

    /// Reads the identifiers of the whole table from `root`.
    init(capturing root: any TableRoot) {
        let sectionCount = max(0, root.numberOfSections())
        var sections: [Section] = []
        sections.reserveCapacity(sectionCount)
        for section in 0..<sectionCount {
            let rowCount = max(0, root.numberOfRows(inSection: section))
            let rows = (0..<rowCount).map { root.rowID(forRowAt: TableIndexPath(section: section, row: $0)) }
            sections.append(Section(id: root.sectionID(forSection: section), rows: rows))
        }
        self.init(sections: sections)
    }

    static let empty = TableSnapshot(sections: [])

    /// Whether no two sections and no two rows share an identifier; the lookups keep only the
    /// last of duplicates, so a diff between snapshots is only meaningful when this holds.
    var hasUniqueIdentifiers: Bool {
        sectionIndexes.count == sections.count && rowPaths.count == sections.reduce(0) { $0 + $1.rows.count }
    }

    func rowCount(inSection section: Int) -> Int {
        sections[section].rows.count
    }

    func rowID(at indexPath: TableIndexPath) -> RowID? {
        guard sections.indices.contains(indexPath.section),
              sections[indexPath.section].rows.indices.contains(indexPath.row) else { return nil }
        return sections[indexPath.section].rows[indexPath.row]
    }

    static func == (lhs: TableSnapshot, rhs: TableSnapshot) -> Bool {
        lhs.sections == rhs.sections
    }
}
