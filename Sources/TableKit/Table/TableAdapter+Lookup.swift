extension TableAdapter {
    /// The number of sections at the last commit.
    public var numberOfSections: Int { snapshot.sections.count }

    /// The number of rows in a section at the last commit, or 0 for an unknown section.
    public func numberOfRows(inSection section: Int) -> Int {
        snapshot.sections.indices.contains(section) ? snapshot.rowCount(inSection: section) : 0
    }

    /// The index path of a row at the last commit, or nil when no row has this identifier.
    public func indexPath(forRowID id: RowID) -> TableIndexPath? {
        snapshot.indexPath(of: id)
    }

    /// The index of a section at the last commit, or nil when no section has this identifier.
    public func sectionIndex(forSectionID id: SectionID) -> Int? {
        snapshot.sectionIndexes[id]
    }

    /// The identifier of the row at an index path at the last commit.
    public func rowID(at indexPath: TableIndexPath) -> RowID? {
        snapshot.rowID(at: indexPath)
    }

    /// The identifier of the section at an index at the last commit.
    public func sectionID(at section: Int) -> SectionID? {
        snapshot.sections.indices.contains(section) ? snapshot.sections[section].id : nil
    }

    /// The index path of a row, or a thrown ``TableError/unknownRow(_:)``.
    func existingIndexPath(forRowID id: RowID) throws -> TableIndexPath {
        guard let indexPath = indexPath(forRowID: id) else { throw TableError.unknownRow(id) }
        return indexPath
    }
}
