// The defaults live here once; cascading delegates reach them through `DefaultTableDelegate`
// so an out-of-range call answers exactly what an unimplemented method would.
extension TableDataSource {
    /// One section.
    public func numberOfSections() -> Int { 1 }
    /// No rows.
    public func numberOfRows(inSection section: Int) -> Int { 0 }
    /// A blank cell.
    public func cell(forRowAt indexPath: TableIndexPath) -> TableCell { .blank }
    /// `"section-{index}"`.
    public func sectionID(forSection section: Int) -> SectionID { SectionID("section-\(section)") }
    /// `"row-{section}-{row}"`.
    public func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID("row-\(indexPath.section)-\(indexPath.row)") }
    /// No header title.
    public func titleForHeader(inSection section: Int) -> String? { nil }
    /// No footer title.
    public func titleForFooter(inSection section: Int) -> String? { nil }
    /// Not editable.
    public func canEditRow(at indexPath: TableIndexPath) -> Bool { false }
    /// Does nothing.
    public func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {}
    /// Not movable.
    public func canMoveRow(at indexPath: TableIndexPath) -> Bool { false }
    /// Does nothing.
    public func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {}
    /// No section index.
    public func sectionIndexTitles() -> [String]? { nil }
    /// The title's position.
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int { index }
}
