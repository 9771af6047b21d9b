/// A section of models in a model data source: its identifier, header title and models.
public struct ModelSection<Model> {
    /// The section's identifier.
    public var id: SectionID
    /// The header title.
    public var title: String?
    /// The models shown as rows, in order.
    public var models: [Model]

    /// Creates a section.
    public init(id: SectionID, title: String?, models: [Model]) {
        self.id = id
        self.title = title
        self.models = models
    }
}
