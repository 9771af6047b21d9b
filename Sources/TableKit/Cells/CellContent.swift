/// The values a cell shows, copied out of a ``CellDataProvider``.
///
/// Being a plain `Equatable` value, content can be compared with the previous render (an
/// unchanged row produces no patch) and written as JSON without knowing the model.
///
///     CellContent(title: "Milk", detail: "2 l")
public struct CellContent: Hashable, Sendable, CellDataProvider {
    /// The main text.
    public var title: String?
    /// Secondary text under the title.
    public var subtitle: String?
    /// Text at the trailing edge.
    public var detail: String?
    /// The trailing accessory.
    public var accessory: CellAccessory
    /// The leading image.
    public var image: CellImage?
    /// A short count or status.
    public var badge: String?
    /// Extra values for custom cell kinds.
    public var fields: [CellField]
    /// Typed values JSON output writes beside the display text (``CellDataProvider/jsonProperties``).
    public var jsonProperties: [JSONProperty]

    /// Creates content from its values.
    public init(
        title: String? = nil,
        subtitle: String? = nil,
        detail: String? = nil,
        accessory: CellAccessory = .none,
        image: CellImage? = nil,
        badge: String? = nil,
        fields: [CellField] = [],
        jsonProperties: [JSONProperty] = []
    ) {
        self.title = title
        self.subtitle = subtitle
        self.detail = detail
        self.accessory = accessory
        self.image = image
        self.badge = badge
        self.fields = fields
        self.jsonProperties = jsonProperties
    }

    /// Copies the values of a data provider.
    // Inlinable so that a cell provider's closure, compiled in the app's module, reads its data
    // provider's properties directly instead of through protocol witnesses, row after row.
    @inlinable
    public init(_ provider: some CellDataProvider) {
        self.init(
            title: provider.title,
            subtitle: provider.subtitle,
            detail: provider.detail,
            accessory: provider.accessory,
            image: provider.image,
            badge: provider.badge,
            fields: provider.fields,
            jsonProperties: provider.jsonProperties
        )
    }

    /// Content with nothing to show.
    public static let empty = CellContent()
}
