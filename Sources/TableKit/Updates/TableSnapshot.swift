/// The identifiers of every section and row at the last commit, with lookups both ways.
///
/// Index paths from before a batch are resolved against this snapshot.
struct TableSnapshot: Equatable {
    struct Section: Equatable {
        var id: SectionID
        var rows: [RowID]
    }

    private(set) var sections: [Section]
    /// Every row's index path, when ``indexesRows``; empty otherwise.
    private(set) var rowPaths: [RowID: TableIndexPath] = [:]
    private(set) var sectionIndexes: [SectionID: Int] = [:]
    /// Whether ``rowPaths`` holds every row: not in the snapshot of a table made for one render
    /// until ``indexRows()``.
    private(set) var indexesRows = false

    /// The snapshot of `sections`, with the lookup of every row unless `indexingRows` is false
    /// (a table made for one render, which looks up one row at most: hashing every row's
    /// identifier was about 2 % of the CPU time of a 100-row database page).
    init(sections: [Section], indexingRows: Bool = true) {
        self.sections = sections
        sectionIndexes.reserveCapacity(sections.count)
        for (sectionIndex, section) in sections.enumerated() {
            sectionIndexes[section.id] = sectionIndex
        }
        if indexingRows { indexRows() }
    }

    /// Fills ``rowPaths``, which diffing against this snapshot needs.
    mutating func indexRows() {
        guard !indexesRows else { return }
        indexesRows = true
        // Sized once: growing the lookup as rows come was about half of making the snapshot of a
        // 100-row database page.
        rowPaths.reserveCapacity(sections.reduce(0) { $0 + $1.rows.count })
        for (sectionIndex, section) in sections.enumerated() {
            for (rowIndex, row) in section.rows.enumerated() {
                rowPaths[row] = TableIndexPath(section: sectionIndex, row: rowIndex)
            }
        }
    }

    /// The index path of the row `id` (the last of duplicates), or nil when no row has it.
    func indexPath(of id: RowID) -> TableIndexPath? {
        if indexesRows { return rowPaths[id] }
        for (sectionIndex, section) in sections.enumerated().reversed() {
            if let row = section.rows.lastIndex(of: id) { return TableIndexPath(section: sectionIndex, row: row) }
        }
        return nil
    }

    /// Reads the identifiers of the whole table from `root`.
    init(capturing root: any TableRoot, indexingRows: Bool = true) {
        let sectionCount = max(0, root.numberOfSections())
        var sections: [Section] = []
        sections.reserveCapacity(sectionCount)
        for section in 0..<sectionCount {
            let rowCount = max(0, root.numberOfRows(inSection: section))
            let rows = (0..<rowCount).map { root.rowID(forRowAt: TableIndexPath(section: section, row: $0)) }
            sections.append(Section(id: root.sectionID(forSection: section), rows: rows))
        }
        self.init(sections: sections, indexingRows: indexingRows)
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
