/// Where a page's rows are edited with forms of their own (a database table's, which
/// TablePagesDatabase serves): a viewer who may write the page is shown "Add a row" on the page and
/// "Edit this row" on each row's page, linking there; other viewers see neither.
///
///     definition.editForms = PageEditForms(insertPath: "/pages/items/-/insert", rowSuffix: "/-/edit")
public struct PageEditForms: Sendable, Hashable {
    /// The path of the form that adds a row.
    public var insertPath: String
    /// What follows a row's path (`/pages/{page}/rows/{row}`) to make its edit form's.
    public var rowSuffix: String

    /// Forms at these paths.
    public init(insertPath: String, rowSuffix: String) {
        self.insertPath = insertPath
        self.rowSuffix = rowSuffix
    }
}
