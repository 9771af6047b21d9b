/// The shared base of ``ListDataSource`` and ``SectionsDataSource``: sections of identifiable
/// models, each row's cell made by a cell-provider closure, each row identified by its model's id.
///
/// Subclass a concrete data source to add selection or editing, calling `super` for the rest.
///
/// Implementation requirements: subclasses arrange ``sections``; identifiers of models must be
/// unique across the whole table.
open class ModelDataSource<Model: Identifiable>: CascadingBareTableDelegate where Model.ID: CustomStringConvertible {
    /// Makes the configured cell for a model at an index path.
    public typealias CellProvider = (Model, IndexPath) -> TableCell

    /// The sections shown, in order.
    public internal(set) var sections: [ModelSection<Model>] {
        didSet { rowIDs = Self.rowIDs(of: sections) }
    }
    private let cellProvider: CellProvider
    // Row identifiers are read for every row of every batch and render; converting each
    // model's id once per change keeps that path free of model copies.
    private var rowIDs: [[RowID]]

    init(sections: [ModelSection<Model>], cellProvider: @escaping CellProvider) {
        self.sections = sections
        self.cellProvider = cellProvider
        self.rowIDs = Self.rowIDs(of: sections)
        super.init()
    }

    private static func rowIDs(of sections: [ModelSection<Model>]) -> [[RowID]] {
        sections.map { section in section.models.map { RowID($0.id.description) } }
    }

    /// The model shown at an index path.
    public func model(at indexPath: IndexPath) -> Model {
        sections[indexPath.section].models[indexPath.row]
    }

    /// The number of sections.
    open override func numberOfSections() -> Int { sections.count }

    /// The number of models in the section, 0 for an unknown section.
    open override func numberOfRows(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].models.count : 0
    }

    /// The cell from the cell provider.
    open override func cell(forRowAt indexPath: IndexPath) -> TableCell {
        cellProvider(model(at: indexPath), indexPath)
    }

    /// The model's identifier.
    open override func rowID(forRowAt indexPath: IndexPath) -> RowID {
        rowIDs[indexPath.section][indexPath.row]
    }

    /// The section's identifier.
    open override func sectionID(forSection section: Int) -> SectionID {
        sections[section].id
    }

    /// The section's title.
    open override func titleForHeader(inSection section: Int) -> String? {
        sections[section].title
    }
}
