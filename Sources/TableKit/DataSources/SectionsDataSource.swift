/// A data source grouping models into sections by a key, in the order keys first appear.
///
///     let byCategory = SectionsDataSource(models: products, sectionKey: \.category) { product, _ in
///         TableCell(.value, ProductCell(product: product))
///     }
///
/// Each key is the section's identifier and header title. Sort the models first to order
/// sections and rows.
open class SectionsDataSource<Model: Identifiable>: ModelDataSource<Model> where Model.ID: CustomStringConvertible {
    private let sectionKey: (Model) -> String

    /// The models, in order; setting them regroups the sections. After changing them, report the
    /// change to the table (batch updates, or `reconcileData()` to let the table find what changed).
    public var models: [Model] {
        didSet { sections = Self.group(models, by: sectionKey) }
    }

    /// Creates a sectioned data source.
    /// - Parameters:
    ///   - models: the rows, in order.
    ///   - sectionKey: the section a model belongs to.
    ///   - cell: makes the cell of a model.
    public init(models: [Model], sectionKey: @escaping (Model) -> String, cell: @escaping CellProvider) {
        self.models = models
        self.sectionKey = sectionKey
        super.init(sections: Self.group(models, by: sectionKey), cellProvider: cell)
    }

    private static func group(_ models: [Model], by key: (Model) -> String) -> [ModelSection<Model>] {
        var sections: [ModelSection<Model>] = []
        var positions: [String: Int] = [:]
        for model in models {
            let name = key(model)
            if let position = positions[name] {
                sections[position].models.append(model)
            } else {
                positions[name] = sections.count
                sections.append(ModelSection(id: SectionID(name), title: name, models: [model]))
            }
        }
        return sections
    }
}
