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

    /// An entry titled `title` leading to `path`.
    public init(title: String, summary: String = "", path: String) {
        self.title = title
        self.summary = summary
        self.path = path
    }
}
