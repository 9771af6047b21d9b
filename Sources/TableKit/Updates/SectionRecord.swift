/// Everything a section shows around its rows: identity, header, footer and row count.
public struct SectionRecord: Hashable, Sendable {
    /// The section's stable identifier.
    public var id: SectionID
    /// The section's index in the current render.
    public var index: Int
    /// The number of rows, including rows not rendered yet.
    public var rowCount: Int
    /// The header title.
    public var headerTitle: String?
    /// The footer title.
    public var footerTitle: String?
    /// The footer title shown instead to a viewer shown the controls; nil: ``footerTitle``.
    public var footerTitleWithControls: String?
    /// The header view; replaces the title when present.
    public var headerView: TableCell?
    /// The footer view; replaces the title when present.
    public var footerView: TableCell?
    /// The header height.
    public var headerHeight: TableHeight
    /// The footer height.
    public var footerHeight: TableHeight
    /// The fields of the add form its insert-style rows show; empty for the one `title` input.
    public var insertFields: [FormField]

    /// Creates a record.
    public init(
        id: SectionID,
        index: Int,
        rowCount: Int,
        headerTitle: String? = nil,
        footerTitle: String? = nil,
        footerTitleWithControls: String? = nil,
        headerView: TableCell? = nil,
        footerView: TableCell? = nil,
        headerHeight: TableHeight = .points(0),
        footerHeight: TableHeight = .points(0),
        insertFields: [FormField] = []
    ) {
        self.id = id
        self.index = index
        self.rowCount = rowCount
        self.headerTitle = headerTitle
        self.footerTitle = footerTitle
        self.footerTitleWithControls = footerTitleWithControls
        self.headerView = headerView
        self.footerView = footerView
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.insertFields = insertFields
    }

    /// The footer title a viewer reads: with the controls or without them.
    public func footerTitle(showingControls: Bool) -> String? {
        showingControls ? footerTitleWithControls ?? footerTitle : footerTitle
    }
}
