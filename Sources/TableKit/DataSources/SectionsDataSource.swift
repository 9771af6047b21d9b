/// A data source grouping models into sections, in the order sections first appear.
///
/// When one value names the section, group by it: it is both the section's identifier and its
/// header title.
///
///     let byCategory = SectionsDataSource(models: products, sectionKey: \.category) { product, _ in
///         TableCell(.value, ProductCell(product: product))
///     }
///
/// When the title is for people and may change or repeat, give each section a stable identifier
/// of its own, used in URLs and patches, and the title separately:
///
///     let byGenre = SectionsDataSource(models: books, section: { book in
///         (id: SectionID(book.genreCode), title: book.genreName)
///     }) { book, _ in
///         TableCell(.subtitle, BookCell(book: book))
///     }
///
/// Sort the models first to order sections and rows.
open class SectionsDataSource<Model: Identifiable>: ModelDataSource<Model> where Model.ID: CustomStringConvertible {
    /// The identifier and header title of the section a model belongs to.
    public typealias SectionProvider = (Model) -> (id: SectionID, title: String?)

    private let section: SectionProvider

    /// The models, in order; setting them regroups the sections. After changing them, report the
    /// change to the table (batch updates, or `reconcileData()` to let the table find what changed).
    public var models: [Model] {
        didSet { sections = Self.group(models, by: section) }
    }

    /// Creates a sectioned data source whose sections have identifiers apart from their titles.
    /// - Parameters:
    ///   - models: the rows, in order.
    ///   - section: the identifier and header title of the section a model belongs to. Models
    ///     with the same identifier share a section, titled by the first of them.
    ///   - cell: makes the cell of a model.
    public init(models: [Model], section: @escaping SectionProvider, cell: @escaping CellProvider) {
        self.models = models
        self.section = section
        super.init(sections: Self.group(models, by: section), cellProvider: cell)
    }

    /// Creates a sectioned data source whose sections are named by one value: the key is each
    /// section's identifier and its header title.
    /// - Parameters:
    ///   - models: the rows, in order.
    ///   - sectionKey: the section a model belongs to.
    ///   - cell: makes the cell of a model.
    public init(models: [Model], sectionKey: @escaping (Model) -> String, cell: @escaping CellProvider) {
        // Designated, not convenience, so subclasses can call it from their own initialisers.
        let section: SectionProvider = { model in
            let key = sectionKey(model)
            return (id: SectionID(key), title: key)
        }
        self.models = models
        self.section = section
        super.init(sections: Self.group(models, by: section), cellProvider: cell)
    }

    private static func group(_ models: [Model], by section: SectionProvider) -> [ModelSection<Model>] {
        var sections: [ModelSection<Model>] = []
        var positions: [SectionID: Int] = [:]
        for model in models {
            let key = section(model)
            if let position = positions[key.id] {
                sections[position].models.append(model)
            } else {
                positions[key.id] = sections.count
                sections.append(ModelSection(id: key.id, title: key.title, models: [model]))
            }
        }
        return sections
    }
}
