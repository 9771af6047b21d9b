/// What a configuration file says of one table or view (``SiteConfiguration/tables``): its page's
/// title and description, the column that labels its rows where others refer to them, and
/// whether the index lists it.
public struct TableConfiguration: Sendable, Equatable, Decodable {
    /// The page's title (in the index and over its rows) instead of the table's name.
    public var title: String?
    /// A sentence for the index instead of the list of columns.
    public var description: String?
    /// The column whose value labels a row where a foreign key refers to it, instead of the
    /// `name`/`title` rule (Datasette's `label_column`).
    public var labelColumn: String?
    /// Whether the index leaves the table out (its page is still served): Datasette's `hidden`.
    public var hidden: Bool

    /// Nothing changed: the table's name, the list of its columns, the rule's label column, listed.
    public init(title: String? = nil, description: String? = nil, labelColumn: String? = nil, hidden: Bool = false) {
        self.title = title
        self.description = description
        self.labelColumn = labelColumn
        self.hidden = hidden
    }

    static let keys = ["title", "description", "label_column", "hidden"]

    /// Reads the keys of `keys`; any other is an error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ConfigurationKey.self)
        try ConfigurationKey.refuseUnknown(in: container, known: Self.keys)
        title = try container.decodeIfPresent(String.self, forKey: ConfigurationKey("title"))
        description = try container.decodeIfPresent(String.self, forKey: ConfigurationKey("description"))
        labelColumn = try container.decodeIfPresent(String.self, forKey: ConfigurationKey("label_column"))
        hidden = try container.decodeIfPresent(Bool.self, forKey: ConfigurationKey("hidden")) ?? false
    }
}
