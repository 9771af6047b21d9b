/// A data source showing models as one flat list.
///
///     let list = ListDataSource(models: todos, title: "All") { todo, _ in
///         TableCell(.subtitle, TodoCell(todo: todo))
///     }
///     let table = TableAdapter(root: list)
///
/// Swap it for a ``SectionsDataSource`` over the same models by assigning ``TableAdapter/root``.
open class ListDataSource<Model: Identifiable>: ModelDataSource<Model> where Model.ID: CustomStringConvertible {
    /// The models, in order. After changing them, report the change to the table
    /// (batch updates, or `reconcileData()` to let the table find what changed).
    public var models: [Model] {
        get { sections[0].models }
        set { sections[0].models = newValue }
    }

    /// Creates a list with one section.
    /// - Parameters:
    ///   - models: the rows, in order.
    ///   - sectionID: the identifier of the single section.
    ///   - title: the section's header title.
    ///   - cell: makes the cell of a model.
    public init(models: [Model], sectionID: SectionID = "all", title: String? = nil, cell: @escaping CellProvider) {
        super.init(sections: [ModelSection(id: sectionID, title: title, models: models)], cellProvider: cell)
    }
}
