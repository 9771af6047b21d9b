/// Where a rendered table lives on the web, so links and forms point back at it.
///
///     let context = RenderContext(basePath: "/pages/todo", variantQuery: "layout=sections", rowLimit: 100)
///     // select form: POST /pages/todo/rows/todo-17/select?layout=sections
public struct RenderContext: Sendable {
    /// The page's path, without a trailing slash, e.g. `/pages/todo`.
    public var basePath: String
    /// The query string that selects the page variant, without `?`, e.g. `layout=sections`;
    /// empty for the default variant. Appended to every link and form so actions reach the
    /// same variant.
    public var variantQuery: String
    /// The most rows a section shows in a page render before a `next` link; nil for all.
    public var rowLimit: Int?
    /// Whether HTML carries the action controls (select forms, delete, insert, action and move
    /// forms); false for a viewer who may not write, whose rows are then plain cells.
    public var showsControls: Bool

    /// Creates a context.
    public init(basePath: String, variantQuery: String = "", rowLimit: Int? = nil, showsControls: Bool = true) {
        self.basePath = basePath
        self.variantQuery = variantQuery
        self.rowLimit = rowLimit
        self.showsControls = showsControls
    }
}
