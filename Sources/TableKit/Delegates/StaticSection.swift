/// A section with a fixed identifier, titles and optional header view, whose rows are its child
/// delegates: the web's "static cells" (a settings screen, a detail page's groups).
///
///     StaticSection(id: "rating", header: "Rating", rows: [ratingRow])
///
/// Subclass it to answer more (heights, selection), calling `super` for the rest.
open class StaticSection: CascadingSectionTableDelegate {
    /// The section's identifier.
    public let id: SectionID
    /// The header title.
    public var header: String?
    /// The footer title.
    public var footer: String?
    /// A cell-like header view shown instead of the title.
    public var headerView: TableCell?

    /// Creates a section over `rows`.
    public init(id: SectionID, header: String? = nil, footer: String? = nil, headerView: TableCell? = nil, rows: [any CascadingTableDelegate] = []) {
        self.id = id
        self.header = header
        self.footer = footer
        self.headerView = headerView
        super.init(childDelegates: rows)
    }

    /// The fixed identifier.
    open override func sectionID(forSection section: Int) -> SectionID { id }
    /// The header title.
    open override func titleForHeader(inSection section: Int) -> String? { header }
    /// The footer title.
    open override func titleForFooter(inSection section: Int) -> String? { footer }
    /// The header view.
    open override func viewForHeader(inSection section: Int) -> TableCell? { headerView }
}
