/// Sections of identifiable models, each row's cell made by a cell-provider closure, each row
/// identified by its model's id: the base of ``ListDataSource`` and ``SectionsDataSource``, and a
/// data source of its own when you arrange the ``sections`` yourself.
///
/// Subclass a data source to add selection or editing, calling `super` for the rest.
///
/// Identifiers of models must be unique across the whole table.
open class ModelDataSource<Model: Identifiable>: CascadingBareTableDelegate where Model.ID: CustomStringConvertible {
    /// Makes the configured cell for a model at an index path.
    public typealias CellProvider = (Model, TableIndexPath) -> TableCell

    /// The sections shown, in order. After changing them, report the change to the table
    /// (batch updates, or `reconcileData()` to let the table find what changed).
    public var sections: [ModelSection<Model>] {
        didSet { rows = Rows(sections) }
    }
    private let cellProvider: CellProvider
    // Cells and identifiers are read for every row of every batch and render, in code that is
    // not specialized for `Model`: reaching a model through `sections` copies its section and
    // looks up `ModelSection<Model>`'s metadata each time. Flat copies, rebuilt when the
    // sections change, are indexed with plain integers instead.
    private var rows: Rows

    /// Creates a data source showing `sections`, each row's cell made by `cellProvider`.
    ///
    /// Use it to arrange sections yourself; ``ListDataSource`` and ``SectionsDataSource`` arrange
    /// them for the common cases.
    public init(sections: [ModelSection<Model>], cellProvider: @escaping CellProvider) {
        self.sections = sections
        self.cellProvider = cellProvider
        self.rows = Rows(sections)
        super.init()
    }

    /// The model shown at an index path.
    public func model(at indexPath: TableIndexPath) -> Model {
        rows.models[rows.position(of: indexPath)]
    }

    /// The number of sections.
    open override func numberOfSections() -> Int { sections.count }

    /// The number of models in the section, 0 for an unknown section.
    open override func numberOfRows(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].models.count : 0
    }

    /// The cell from the cell provider.
    open override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        cellProvider(model(at: indexPath), indexPath)
    }

    /// The model's identifier.
    open override func rowID(forRowAt indexPath: TableIndexPath) -> RowID {
        rows.ids[rows.position(of: indexPath)]
    }

    /// The section's identifier.
    open override func sectionID(forSection section: Int) -> SectionID {
        sections[section].id
    }

    /// The section's title.
    open override func titleForHeader(inSection section: Int) -> String? {
        sections[section].title
    }

    /// Every section's models and row identifiers end to end, with where each section starts.
    private struct Rows {
        var models: [Model]
        var ids: [RowID]
        /// The position of each section's first row, then the total row count.
        var starts: [Int]

        init(_ sections: [ModelSection<Model>]) {
            models = sections.flatMap(\.models)
            ids = models.map { RowID($0.id.description) }
            starts = [0]
            starts.reserveCapacity(sections.count + 1)
            for section in sections {
                starts.append(starts[starts.count - 1] + section.models.count)
            }
        }

        /// The flat position of a row; traps on a row or section out of range, as indexing
        /// the section's models would.
        func position(of indexPath: TableIndexPath) -> Int {
            precondition(indexPath.section >= 0 && indexPath.section + 1 < starts.count, "Section index out of range")
            let start = starts[indexPath.section]
            precondition(indexPath.row >= 0 && indexPath.row < starts[indexPath.section + 1] - start, "Row index out of range")
            return start + indexPath.row
        }
    }
}
