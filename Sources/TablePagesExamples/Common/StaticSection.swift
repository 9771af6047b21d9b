import TableKit

/// A section delegate with a fixed identifier, titles and optional header view, whose rows are
/// its child delegates.
///
///     StaticSection(id: "rating", header: "Rating", rows: [ratingRow])
class StaticSection: CascadingSectionTableDelegate {
    let id: SectionID
    var header: String?
    var footer: String?
    var headerView: TableCell?

    init(id: SectionID, header: String? = nil, footer: String? = nil, headerView: TableCell? = nil, rows: [any CascadingTableDelegate] = []) {
        self.id = id
        self.header = header
        self.footer = footer
        self.headerView = headerView
        super.init(childDelegates: rows)
    }

    override func sectionID(forSection section: Int) -> SectionID { id }
    override func titleForHeader(inSection section: Int) -> String? { header }
    override func titleForFooter(inSection section: Int) -> String? { footer }
    override func viewForHeader(inSection section: Int) -> TableCell? { headerView }
}
