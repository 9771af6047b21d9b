// The one place the data-source defaults are stated, in code and in words. Cascading delegates
// reach them through `DefaultTableDelegate`, so a call that reaches no child answers exactly
// what an unimplemented method would.
extension TableDataSource {
    /// Default: 1 section.
    public func numberOfSections() -> Int { 1 }
    /// Default: 0 rows.
    public func numberOfRows(inSection section: Int) -> Int { 0 }
    /// Default: ``TableCell/blank``.
    public func cell(forRowAt indexPath: TableIndexPath) -> TableCell { .blank }
    /// Default: `"section-{section}"`, which changes when a section is inserted before it.
    public func sectionID(forSection section: Int) -> SectionID { SectionID("section-\(section)") }
    /// Default: `"row-{section}-{row}"`, which changes when a row is inserted before it.
    public func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID("row-\(indexPath.section)-\(indexPath.row)") }
    /// Default: nil, no header title.
    public func titleForHeader(inSection section: Int) -> String? { nil }
    /// Default: nil, no footer title.
    public func titleForFooter(inSection section: Int) -> String? { nil }
    /// Default: nil, the same footer for every viewer.
    public func titleForFooterWithControls(inSection section: Int) -> String? { nil }
    /// Default: false, not editable.
    public func canEditRow(at indexPath: TableIndexPath) -> Bool { false }
    /// None: the add form keeps its one required `title` text input.
    public func fieldsForInserting(inSection section: Int) -> [FormField] { [] }
    /// Default: does nothing.
    public func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {}
    /// Default: false, not movable.
    public func canMoveRow(at indexPath: TableIndexPath) -> Bool { false }
    /// Default: does nothing.
    public func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {}
    /// Default: nil, no section index.
    public func sectionIndexTitles() -> [String]? { nil }
    /// Default: nil, the title the table's owner gives it (``TableAdapter/title``).
    public func titleForTable() -> String? { nil }
    /// Default: nil, nothing above the sections.
    public func headerViewForTable() -> TableCell? { nil }
    /// Default: none.
    public func jsonPropertiesForTable() -> [JSONProperty] { [] }
    /// Default: `index`, the title's position.
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int { index }
    /// Default: nil, the section is held whole.
    public func numberOfRowsAfterWindow(inSection section: Int) -> Int? { nil }
    /// Default: false, every row is made whole.
    public func hasUniformRows(inSection section: Int) -> Bool { false }
    /// Default: the fields of ``cell(forRowAt:)``.
    public func writeFields(forRowAt indexPath: TableIndexPath, into fields: inout JSONFieldWriter) {
        fields.write(fieldsOf: cell(forRowAt: indexPath))
    }
}
