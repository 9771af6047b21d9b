/// A delegate's answer the table cannot honour, reported through ``TableAdapter/onIgnoredAnswer``
/// rather than dropped in silence: a server logs it (TablePages, once per page and case).
public enum IgnoredDelegateAnswer: Hashable, Sendable {
    /// ``TableContext/show(_:)`` was called outside `didSelectRow` (from a row action, an edit, a
    /// re-read), where nobody is being led anywhere.
    case showOutsideSelection(location: String)
    /// ``TableContext/show(_:)`` named an address that is not a path on this site.
    case showOffSite(location: String)
    /// ``TableDelegate/linkForRow(at:)`` named an address that is not a path on this site.
    case linkOffSite(location: String, row: RowID)
    /// ``TableDelegate/editingStyleForRow(at:)`` answered `.insert` for a row whose
    /// ``TableDataSource/canEditRow(at:)`` answered false: the row shows no add form.
    case insertWithoutEditing(row: RowID)

    /// The case without its values: reports of one case are alike, so a log keeps the first.
    public var category: String {
        switch self {
        case .showOutsideSelection: "showOutsideSelection"
        case .showOffSite: "showOffSite"
        case .linkOffSite: "linkOffSite"
        case .insertWithoutEditing: "insertWithoutEditing"
        }
    }

    /// What was ignored and what to do instead, for a developer reading the log.
    public var message: String {
        switch self {
        case .showOutsideSelection(let location):
            "tableContext.show(\"\(location)\") was called outside didSelectRow (from a row action, an edit or a re-read) and leads nowhere; "
                + "answer linkForRow(at:) to make the row a link, or lead from didSelectRow"
        case .showOffSite(let location):
            "tableContext.show(\"\(location)\") was ignored: only a path on this site (starting with one \"/\") can be shown"
        case .linkOffSite(let location, let row):
            "linkForRow(at:) of row \(row.rawValue) answered \"\(location)\", which is not a path on this site (starting with one \"/\"); "
                + "the row is shown without a link"
        case .insertWithoutEditing(let row):
            "editingStyleForRow(at:) of row \(row.rawValue) answered .insert, but canEditRow(at:) answered false, so the row shows no add form; "
                + "answer true from canEditRow(at:) for that row"
        }
    }
}
