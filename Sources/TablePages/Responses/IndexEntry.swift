/// A link on the index besides the registered pages: a page another module serves at its own
/// path (TablePagesDatabase's SQL page and canned queries), listed after the pages, for every
/// viewer.
///
///     let site = Site(pages: pages, entries: [IndexEntry(title: "SQL", summary: "Run a read-only query", path: "/-/sql")])
public struct IndexEntry: Sendable, Equatable {
    /// The link's title.
    public var title: String
    /// A sentence under the title; may be empty.
    public var summary: String
    /// Where it leads: a path on this site.
    public var path: String
    /// The name of a text field `path` takes (the SQL page's `sql`): the index then also offers a
    /// box to type it in, sent there. Nil: a link alone.
    public var queryField: String?

    /// An entry titled `title` leading to `path`, with a box for its `queryField` when given.
    public init(title: String, summary: String = "", path: String, queryField: String? = nil) {
        self.title = title
        self.summary = summary
        self.path = path
        self.queryField = queryField
    }
}
